package prebuilt

import (
	"context"
	"errors"
	"fmt"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"

	"github.com/sgrgraph/sgrgraph/graph"
)

// AgentInput is the argument of an agent tool: what the calling model asks
// the agent.
type AgentInput struct {
	Input string `json:"input" jsonschema:"description=the request for the agent, complete in itself: it sees nothing else of the conversation"`
}

// AgentTool wraps a compiled agent as a tool (LangGraph's agent as a tool,
// the supervisor calling its workers as tools): each call runs the agent on
// a conversation of one user message, the call's input, and answers with
// the content of the agent's last assistant message. The agent sees only
// that input, and the caller's conversation gets only the answer. The run
// is a nested run of the calling node (its stream events carry the node's
// path); the tool node's policy (timeout, retries) bounds it.
func AgentTool(name, description string, agent *graph.Runnable[*MessagesState]) (tool.InvokableTool, error) {
	if agent == nil {
		return nil, fmt.Errorf("agent tool %s: nil agent", name)
	}
	return FuncTool(name, description, func(ctx context.Context, input string) (string, error) {
		out, err := agent.Invoke(ctx, &MessagesState{Messages: []*schema.Message{schema.UserMessage(input)}})
		if err != nil {
			return "", err
		}
		return LastAnswer(out.Messages)
	})
}

// FuncTool wraps any function from a request to an answer as an agent
// tool with AgentInput's argument: another kind of agent, such as
// sgrgraph's guarded turn (agent.Agent.Run), or a remote one.
func FuncTool(name, description string, fn func(ctx context.Context, input string) (string, error)) (tool.InvokableTool, error) {
	if fn == nil {
		return nil, fmt.Errorf("agent tool %s: nil function", name)
	}
	return NewTool(name, description, func(ctx context.Context, in AgentInput) (string, error) {
		return fn(ctx, in.Input)
	})
}

// LastAnswer returns the content of the last assistant message of ms that
// calls no tools, or an error when there is none.
func LastAnswer(ms []*schema.Message) (string, error) {
	for i := len(ms) - 1; i >= 0; i-- {
		if m := ms[i]; m != nil && m.Role == schema.Assistant && len(m.ToolCalls) == 0 {
			return m.Content, nil
		}
	}
	return "", errNoAnswer
}

var errNoAnswer = errors.New("the agent gave no answer")
