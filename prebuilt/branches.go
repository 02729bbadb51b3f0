package prebuilt

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/cloudwego/eino/schema"

	"github.com/sgrgraph/sgrgraph/graph"
)

// CallNode is the node WithToolCallBranches runs each tool call in, unless
// ToolCallBranches.Name names another.
const CallNode = "call_tool"

// AnswerKey is the key the model node's router takes out of the loop when
// the tool calls run as branches (WithToolCallBranches): its reply calls
// no tool. Diagrams label the edge "send answer".
const AnswerKey = "answer"

// WithNodeNames names the model and tools nodes (AgentNode and ToolsNode
// by default): the names stream events, traces, interrupts and diagrams
// show.
func WithNodeNames[S Messages](model, tools string) AgentOption[S] {
	return func(c *agentConfig[S]) { c.modelName, c.toolsName = model, tools }
}

// WithModelNode runs fn as the model node instead of the built-in one, in
// the same loop: the pre-model hook before it, its reply routed by
// CallsTools to the tools or out, the step limit. It is for a model step
// that builds its request from more of the state than the conversation
// (a prompt from a plan, tools chosen per call, its own count of
// iterations) and calls the model its own way; ToolChoiceAt gives it the
// built-in node's choice of tools. WithSystemPrompt, WithForcedFirstToolCall
// and the tool ban of WithMaxIterations are the built-in node's and do
// not apply; the model passed to NewAgent may be nil unless
// WithStructuredOutput needs it.
func WithModelNode[S Messages](fn graph.NodeFunc[S]) AgentOption[S] {
	return func(c *agentConfig[S]) { c.modelNode = fn }
}

// WithToolsNode runs fn as the tools node instead of the ToolNode over the
// agent's tools: a tool step of your own. With WithToolCallBranches it is
// the node the branches meet at, which reads what they returned.
func WithToolsNode[S Messages](fn graph.NodeFunc[S]) AgentOption[S] {
	return func(c *agentConfig[S]) { c.toolsNode = fn }
}

// ToolCallBranches says how WithToolCallBranches runs each call; every
// field has a default.
type ToolCallBranches[S Messages] struct {
	// Name is the call node's name; CallNode when "".
	Name string
	// Node answers the call of its branch; nil runs the agent's ToolNode
	// (Run), which answers the one call Split left in the branch's
	// conversation.
	Node graph.NodeFunc[S]
	// Split makes the state of one call's branch from the state after the
	// model's reply (the graph copies it again before the branch runs);
	// nil copies the state (its Clone method, else a copy of the struct
	// the pointer S points to) and leaves in the copy's conversation the
	// reply with only that call.
	Split func(s S, call schema.ToolCall) S
}

// WithToolCallBranches runs the tool calls of a reply as graph branches,
// one each (graph.Send to the call node), in parallel: each call is a node
// run of its own in the stream, traces and diagrams. The tools node runs
// once all have returned, on their states merged in call order. A reply
// with one call runs the call node on the state itself.
//
// The branches meet by the state's reducers: the conversation must be
// reduced by append (MessagesState's is), so that each branch's tool
// message joins it; the default tools node then checks that every call
// was answered. Approvals (WithApproval) ask before any call of the step
// runs, which calls in branches of their own cannot do: the agent refuses
// them with the default Node.
func WithToolCallBranches[S Messages](b ToolCallBranches[S]) AgentOption[S] {
	return func(c *agentConfig[S]) {
		own := b // NewAgent fills in the defaults: an option used twice starts from b each time
		c.branches = &own
	}
}

// defaults fills the branches' zero fields with the agent's ToolNode.
func (b *ToolCallBranches[S]) defaults(tn *ToolNode[S]) error {
	if b.Name == "" {
		b.Name = CallNode
	}
	if b.Node == nil {
		if len(tn.approve) > 0 {
			return errors.New("approvals ask before any call of a step runs, and calls run as branches do not wait for each other: " +
				"give ToolCallBranches a Node of your own, or run the calls in the tools node")
		}
		b.Node = tn.Run
	}
	if b.Split == nil {
		var zero S
		if _, ok := any(zero).(graph.Cloner[S]); !ok {
			if t := reflect.TypeFor[S](); t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct {
				return fmt.Errorf("tool call branches: the state %s has no Clone method and is no pointer to a struct: give ToolCallBranches a Split", t)
			}
		}
		b.Split = narrowed[S]
	}
	return nil
}

// route sends each call of the reply to the call node, or the state out
// when the reply calls no tool.
func (b *ToolCallBranches[S]) route(_ context.Context, s S) ([]graph.Send[S], error) {
	ms := s.GetMessages()
	if !CallsTools(ms) {
		return []graph.Send[S]{{Key: AnswerKey, State: s}}, nil
	}
	calls := ms[len(ms)-1].ToolCalls
	if len(calls) == 1 { // one call needs no branch: the node runs on the state itself
		return []graph.Send[S]{{Key: b.Name, State: s}}, nil
	}
	sends := make([]graph.Send[S], len(calls))
	for i, c := range calls {
		sends[i] = graph.Send[S]{Key: b.Name, State: b.Split(s, c)}
	}
	return sends, nil
}

// narrowed is a copy of s whose last message, the reply, holds only call.
func narrowed[S Messages](s S, call schema.ToolCall) S {
	var c S
	if cl, ok := any(s).(graph.Cloner[S]); ok {
		c = cl.Clone()
	} else {
		v := reflect.ValueOf(s)
		p := reflect.New(v.Type().Elem())
		p.Elem().Set(v.Elem())
		c = p.Interface().(S)
	}
	ms := s.GetMessages()
	reply := *ms[len(ms)-1]
	reply.ToolCalls = []schema.ToolCall{call}
	c.SetMessages(append(slices.Clone(ms[:len(ms)-1]), &reply))
	return c
}

// joinAnswers is the tools node where the branches meet: every call of the
// reply must have its answer.
func joinAnswers[S Messages](_ context.Context, s S) (S, error) {
	ms := s.GetMessages()
	if at, answered := pendingCalls(ms); at >= 0 {
		var missing []string
		for _, c := range ms[at].ToolCalls {
			if !answered[c.ID] {
				missing = append(missing, c.Function.Name+" ("+c.ID+")")
			}
		}
		return s, fmt.Errorf("tool calls without an answer after their branches: %s (does the conversation reduce by append?)", strings.Join(missing, ", "))
	}
	return s, nil
}

// checkNames refuses node names that are empty, reserved or taken twice.
func (c *agentConfig[S]) checkNames() error {
	names := []string{c.modelName, c.toolsName}
	if c.branches != nil {
		name := c.branches.Name
		if name == "" {
			name = CallNode
		}
		names = append(names, name)
	}
	if c.hook != nil {
		names = append(names, PreModelHookNode)
	}
	if c.respond != nil {
		names = append(names, StructuredResponseNode)
	}
	for i, n := range names {
		switch {
		case n == "":
			return errors.New("a node name is empty")
		case n == graph.START || n == graph.END:
			return fmt.Errorf("the node name %q is the graph's own", n)
		case slices.Contains(names[:i], n):
			return fmt.Errorf("two nodes are named %q", n)
		}
	}
	return nil
}
