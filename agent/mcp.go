package agent

import (
	"context"
	"fmt"
	"maps"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"

	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/mcptools"
	"github.com/sgrgraph/sgrgraph/models/offline"
)

// mcpTools are tools.mcp's servers connected and their tools, each
// evidence of its server's declared source.
type mcpTools struct {
	set   *mcptools.Toolset
	tools []Tool
}

// startMCP starts connecting to tools.mcp's servers, in a goroutine of its
// own, as the knowledge base opens; nil when there are none.
func startMCP(ctx context.Context, servers []config.MCPServer) func() (mcpTools, error) {
	if len(servers) == 0 {
		return nil
	}
	return started(func() (mcpTools, error) { return connectMCP(ctx, servers) })
}

// connectMCP connects to the servers and lists their tools. The tool step
// screens every result (nodes.AgentTools), so the tools do not.
func connectMCP(ctx context.Context, servers []config.MCPServer) (mcpTools, error) {
	list := make([]mcptools.Server, len(servers))
	source := map[string]contracts.EvidenceSource{}
	for i, s := range servers {
		list[i] = mcptools.Server{Name: s.Name, Command: s.Command, Args: s.Args, Env: s.Env, Dir: s.Dir,
			URL: s.URL, Headers: s.Headers, BearerToken: s.BearerToken, Allow: s.Allow, Deny: s.Deny,
			ConnectTimeout: s.ConnectTimeout, CallTimeout: s.Timeout, Attempts: s.Attempts, MaxResultBytes: s.MaxResultBytes}
		source[s.Name] = contracts.EvidenceSource(s.Source)
	}
	set, err := mcptools.Connect(ctx, list, mcptools.Options{})
	if err != nil {
		return mcpTools{}, fmt.Errorf("config: tools.mcp: %w", err)
	}
	out := mcpTools{set: set}
	for _, t := range set.Tools() {
		out.tools = append(out.tools, Tool{InvokableTool: t, Source: source[t.Server()]})
	}
	return out, nil
}

// waitMCP takes the connected servers into the agent, which closes them;
// their tools, with o's, are the agent's.
func (a *Agent) waitMCP(b builds) ([]Tool, error) {
	if b.mcp == nil {
		return nil, nil
	}
	m, err := b.mcp()
	a.mcp = m.set
	return m.tools, err
}

// queryArgument is the argument of t that takes a search query: the one
// given, else the tool's own (an MCP tool's, mcptools.Tool.QueryArgument).
func queryArgument(t Tool) string {
	if t.QueryArgument != "" {
		return t.QueryArgument
	}
	if q, ok := t.InvokableTool.(interface{ QueryArgument() string }); ok {
		return q.QueryArgument()
	}
	return ""
}

// withQuery is a tool as the model is offered it: its info says which
// argument takes a search query, for the offline engine, which calls such
// a tool as it calls search_kb (offline.QueryArgument).
type withQuery struct {
	tool.InvokableTool
	arg string
}

func (w withQuery) Info(ctx context.Context) (*schema.ToolInfo, error) {
	info, err := w.InvokableTool.Info(ctx)
	if err != nil || info == nil {
		return info, err
	}
	c := *info
	c.Extra = maps.Clone(info.Extra)
	if c.Extra == nil {
		c.Extra = map[string]any{}
	}
	c.Extra[offline.QueryArgument] = w.arg
	return &c, nil
}

// offer is t as the model is offered it.
func offer(t Tool) tool.InvokableTool {
	if arg := queryArgument(t); arg != "" {
		return withQuery{InvokableTool: t.InvokableTool, arg: arg}
	}
	return t.InvokableTool
}
