package offline

import (
	"encoding/json"
	"fmt"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
)

// QueryArgument is a key of a tool's schema.ToolInfo.Extra: its value
// names the tool's argument that takes a search query. The engine calls
// every tool offered with one, with each of its search queries, as it
// calls search_kb: a lookup of another source (a database, a policy
// store, an MCP server's search) is searched with the same words, and
// what it answers is evidence of that source. The agent sets it on the
// tools it is given that have such an argument (agent.Tool.QueryArgument).
const QueryArgument = "sgrgraph.query_argument"

// evidenceCalls are the calls of the evidence tools offered for queries,
// tool by tool in the order offered. n numbers the step's calls apart from
// search_kb's (callID).
func evidenceCalls(o *model.Options, queries []string, n int) []schema.ToolCall {
	var out []schema.ToolCall
	for _, t := range o.Tools {
		arg, _ := t.Extra[QueryArgument].(string)
		if arg == "" || t.Name == searchTool || t.Name == planTool {
			continue
		}
		for _, q := range queries {
			raw, _ := json.Marshal(map[string]string{arg: q})
			out = append(out, schema.ToolCall{ID: fmt.Sprintf("offline_evidence_%d_%d", n, len(out)), Type: "function",
				Function: schema.FunctionCall{Name: t.Name, Arguments: string(raw)}})
		}
	}
	return out
}
