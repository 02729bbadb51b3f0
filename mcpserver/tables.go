package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sgrgraph/sgrgraph/agent"
)

// tableScheme prefixes a decision table's resource: table://DT-002.
const tableScheme = "table://"

// addTableResources offers each decision table the agent decides with as
// a Markdown resource, printed as `sgrgraph tables` prints it: a client
// can read why a turn was routed as it was (the decisions in
// ask_structured's result name the table and the rule).
func addTableResources(s *mcp.Server, a *agent.Agent) {
	set := a.Tables()
	if set == nil {
		return
	}
	for _, t := range set.All() {
		uri, text := tableScheme+t.ID, t.Markdown() // tables are fixed once the agent is built
		s.AddResource(&mcp.Resource{
			URI:         uri,
			Name:        t.ID,
			Title:       t.ID + ": " + t.Title,
			Description: "Decision table " + t.Name + " (hit policy " + string(t.HitPolicy) + ")",
			MIMEType:    "text/markdown",
			Size:        int64(len(text)),
		}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: text}}}, nil
		})
	}
}
