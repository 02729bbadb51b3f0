package prebuilt

import (
	"context"
	"fmt"
	"strings"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"

	"github.com/sgrgraph/sgrgraph/graph"
)

// TransferPrefix begins the name of a hand-off tool: the tool that hands
// the conversation to agent "billing" is transfer_to_billing, as
// LangGraph's create_handoff_tool names it.
const TransferPrefix = "transfer_to_"

// HandoffTool returns a tool that hands the conversation to another agent
// (LangGraph's handoff tool, create_handoff_tool): agent is the node of the
// parent graph that runs that agent. The tool is named TransferPrefix +
// agent and takes no arguments; description tells the model when to call
// it (empty, it says "Transfer the conversation to <agent>.").
//
// The agent that calls it must run as a subgraph of the parent graph
// (graph.Subgraph), in a prebuilt.ToolNode or NewAgent: the call answers
// "Transferred to <agent>." and calls graph.GotoParent(ctx, agent), so the
// agent's graph ends once its tool node returns, and the parent goes on at
// agent's node with the conversation as it stands, the call and its answer
// included. The parent's node that runs the calling agent declares the
// agents it may hand to with graph.WithDestinations; a hand-off to any
// other node fails the run. Called outside a graph, the tool only answers.
func HandoffTool(agent, description string) (tool.InvokableTool, error) {
	if agent == "" || strings.ContainsAny(agent, " \t\n") {
		return nil, fmt.Errorf("hand-off tool: the agent's node name %q is empty or has spaces", agent)
	}
	if description == "" {
		description = "Transfer the conversation to " + agent + "."
	}
	return handoff{agent: agent, info: &schema.ToolInfo{Name: TransferPrefix + agent, Desc: description}}, nil
}

type handoff struct {
	agent string
	info  *schema.ToolInfo
}

func (h handoff) Info(context.Context) (*schema.ToolInfo, error) { return h.info, nil }

func (h handoff) InvokableRun(ctx context.Context, _ string, _ ...tool.Option) (string, error) {
	graph.GotoParent(ctx, h.agent)
	return "Transferred to " + h.agent + ".", nil
}

// HandedTo reports the agent the conversation was last handed to: the
// agent of the last hand-off call answered in ms after the last user
// message, or "" when there is none.
func HandedTo(ms []*schema.Message) string {
	for i := len(ms) - 1; i >= 0; i-- {
		m := ms[i]
		switch {
		case m == nil:
		case m.Role == schema.User:
			return ""
		case m.Role == schema.Tool && strings.HasPrefix(m.ToolName, TransferPrefix):
			return strings.TrimPrefix(m.ToolName, TransferPrefix)
		}
	}
	return ""
}
