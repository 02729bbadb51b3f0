package prebuilt

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"

	"github.com/sgrgraph/sgrgraph/graph"
)

// The nodes of NewAgent's graph, as LangGraph's create_react_agent names
// them. Stream events carry them in their Path ("agent", or
// "research/agent" when the agent is the node "research" of another
// graph).
const (
	AgentNode              = "agent"
	ToolsNode              = "tools"
	PreModelHookNode       = "pre_model_hook"
	StructuredResponseNode = "generate_structured_response"
)

// DefaultMaxIterations bounds the model calls of one turn of an agent when
// WithMaxIterations does not.
const DefaultMaxIterations = 10

// lastStepNote is added to the system prompt of the call that may use no
// tools, so that the model answers rather than asks for one.
const lastStepNote = "You may call no more tools: answer now from what the tools have returned."

// AgentOption tunes NewAgent.
type AgentOption[S Messages] func(*agentConfig[S])

type agentConfig[S Messages] struct {
	name      string
	prompt    string
	max       int
	force     bool
	forceOnly []string
	toolOpts  []ToolOption
	compile   []graph.CompileOption
	modelOpts []graph.NodeOption
	hook      graph.NodeFunc[S]
	respond   *responder[S]
	// The nodes' names, and the nodes given in place of the built-in ones.
	modelName, toolsName string
	modelNode, toolsNode graph.NodeFunc[S]
	branches             *ToolCallBranches[S]
}

// WithName names the agent's graph ("agent" by default).
func WithName[S Messages](name string) AgentOption[S] {
	return func(c *agentConfig[S]) { c.name = name }
}

// WithSystemPrompt sets the system message the model is given before the
// conversation on each call (LangGraph's prompt). It is not added to the
// state.
func WithSystemPrompt[S Messages](prompt string) AgentOption[S] {
	return func(c *agentConfig[S]) { c.prompt = prompt }
}

// WithMaxIterations bounds the model calls of a turn, the turn being what
// follows the conversation's last user message: the n-th call is made with
// tools forbidden, so the agent ends with an answer from what the tools
// returned rather than with an error. A call that ignores the ban has its
// tool calls dropped.
func WithMaxIterations[S Messages](n int) AgentOption[S] {
	return func(c *agentConfig[S]) { c.max = n }
}

// WithForcedFirstToolCall makes the first model call of a turn call a tool
// (tool_choice required), one of the named tools when names are given, so
// that the agent cannot answer before it has looked.
func WithForcedFirstToolCall[S Messages](tools ...string) AgentOption[S] {
	return func(c *agentConfig[S]) { c.force, c.forceOnly = true, tools }
}

// WithToolOptions tunes the agent's ToolNode: policies, approvals, the
// screen.
func WithToolOptions[S Messages](opts ...ToolOption) AgentOption[S] {
	return func(c *agentConfig[S]) { c.toolOpts = append(c.toolOpts, opts...) }
}

// WithApprovalBefore asks a person before each call of the named tools:
// WithToolOptions(WithApproval(tools...)).
func WithApprovalBefore[S Messages](tools ...string) AgentOption[S] {
	return WithToolOptions[S](WithApproval(tools...))
}

// WithCompileOptions passes options to the graph's Compile: a
// checkpointer (which approvals need), tracing, middleware, a step limit.
// An agent run as a subgraph is given the options its parent graph is
// compiled with, the checkpointer included.
func WithCompileOptions[S Messages](opts ...graph.CompileOption) AgentOption[S] {
	return func(c *agentConfig[S]) { c.compile = append(c.compile, opts...) }
}

// WithModelNodeOptions gives the model node a policy: graph.WithRetry,
// graph.WithTimeout.
func WithModelNodeOptions[S Messages](opts ...graph.NodeOption) AgentOption[S] {
	return func(c *agentConfig[S]) { c.modelOpts = append(c.modelOpts, opts...) }
}

// WithPreModelHook runs a node before each model call (LangGraph's
// pre_model_hook): TrimNode or SummarizeNode, to keep the conversation
// within the model's context.
func WithPreModelHook[S Messages](hook graph.NodeFunc[S]) AgentOption[S] {
	return func(c *agentConfig[S]) { c.hook = hook }
}

// NewAgent builds LangGraph's prebuilt agent (create_react_agent,
// create_agent) over your own state and compiles it: the model is called
// with the conversation and the tools; while its reply calls tools, a
// ToolNode answers them and the model is called again; a reply without
// tool calls ends the run. The compiled graph runs alone or as a node of
// another graph over the same state (graph.Subgraph).
//
// The model must take its tools with each call (eino's model.WithTools
// option), as eino's chat models do. Its replies are streamed: a run
// streamed with graph.StreamMessages yields each chunk as a
// *schema.Message, with the path of the agent node.
func NewAgent[S Messages](ctx context.Context, m model.BaseChatModel, tools []tool.BaseTool, opts ...AgentOption[S]) (*graph.Runnable[S], error) {
	c := agentConfig[S]{name: "agent", max: DefaultMaxIterations, modelName: AgentNode, toolsName: ToolsNode}
	for _, o := range opts {
		o(&c)
	}
	if m == nil && (c.modelNode == nil || c.respond != nil) {
		return nil, errors.New("agent: nil model")
	}
	if c.max < 1 {
		return nil, fmt.Errorf("agent %s: max iterations must be at least 1, got %d", c.name, c.max)
	}
	if err := c.checkNames(); err != nil {
		return nil, fmt.Errorf("agent %s: %w", c.name, err)
	}
	tn, err := NewToolNode[S](ctx, tools, c.toolOpts...)
	if err != nil {
		return nil, fmt.Errorf("agent %s: %w", c.name, err)
	}
	for _, name := range c.forceOnly {
		if tn.tools[name] == nil {
			return nil, fmt.Errorf("agent %s: the forced first call names tool %s, which is not one of %s", c.name, name, tn.names)
		}
	}
	modelNode, toolsNode := c.modelNode, c.toolsNode
	if modelNode == nil {
		modelNode = (&agentModel[S]{model: m, cfg: &c, infos: tn.Infos()}).node
	}
	if toolsNode == nil {
		toolsNode = tn.Run
	}
	b := c.branches
	if b != nil {
		if err := b.defaults(tn); err != nil {
			return nil, fmt.Errorf("agent %s: %w", c.name, err)
		}
		if c.toolsNode == nil {
			toolsNode = joinAnswers[S]
		}
	}
	model, toolsName := c.modelName, c.toolsName
	first := model
	g := graph.New[S](c.name).AddNode(model, modelNode, c.modelOpts...).AddNode(toolsName, toolsNode)
	if b != nil {
		g.AddNode(b.Name, b.Node)
	}
	if c.hook != nil {
		first = PreModelHookNode
		g.AddNode(PreModelHookNode, c.hook).AddEdge(PreModelHookNode, model)
	}
	done := graph.END
	if c.respond != nil {
		done = StructuredResponseNode
		c.respond.model, c.respond.prompt = m, c.prompt
		g.AddNode(StructuredResponseNode, c.respond.node).AddEdge(StructuredResponseNode, graph.END)
	}
	g.AddEdge(graph.START, first)
	if b != nil {
		g.AddEdge(b.Name, toolsName).
			AddConditionalEdges(model, graph.BySend(b.route), map[string]string{b.Name: b.Name, AnswerKey: done})
	} else {
		g.AddConditionalEdges(model, ToolsCondition[S](), map[string]string{ToolsKey: toolsName, graph.END: done})
	}
	g.AddEdge(toolsName, first)
	// Two steps an iteration, one more with the hook and one more with
	// branches, and the last answer and the structured response; the
	// caller's own limit, when given, wins.
	per := 2
	if c.hook != nil {
		per++
	}
	if b != nil {
		per++
	}
	steps := c.max*per + 3
	r, err := g.Compile(ctx, append([]graph.CompileOption{graph.WithMaxSteps(steps)}, c.compile...)...)
	if err != nil {
		return nil, fmt.Errorf("agent: %w", err)
	}
	return r, nil
}

// agentModel is the model node.
type agentModel[S Messages] struct {
	model model.BaseChatModel
	cfg   *agentConfig[S]
	infos []*schema.ToolInfo
}

// turnCalls is how many model calls the turn has made: the assistant
// messages after the last user message (a summary is no user's message).
func turnCalls(ms []*schema.Message) int {
	n := 0
	for _, m := range slices.Backward(ms) {
		switch {
		case m == nil:
		case m.Role == schema.User && !isSummary(m):
			return n
		case m.Role == schema.Assistant:
			n++
		}
	}
	return n
}

func (a *agentModel[S]) node(ctx context.Context, s S) (S, error) {
	ms := s.GetMessages()
	calls := turnCalls(ms)
	choice, last := ToolChoiceAt(calls, a.cfg.max, a.cfg.force)
	prompt := a.cfg.prompt
	var opts []model.Option
	if len(a.infos) > 0 {
		opts = append(opts, model.WithTools(a.infos))
		switch choice {
		case schema.ToolChoiceForbidden:
			if calls > 0 {
				prompt = joinPrompt(prompt, lastStepNote)
			}
			opts = append(opts, model.WithToolChoice(choice))
		case schema.ToolChoiceForced:
			opts = append(opts, model.WithToolChoice(choice, a.cfg.forceOnly...))
		default:
			opts = append(opts, model.WithToolChoice(choice))
		}
	}
	msg, err := streamReply(ctx, a.model, withPrompt(prompt, ms), opts...)
	if err != nil {
		return s, fmt.Errorf("model: %w", err)
	}
	msg.Role = schema.Assistant
	if len(msg.ToolCalls) > 0 && (last || len(a.infos) == 0) {
		// A model that ignores the ban would loop to the step limit, and
		// calls left unanswered would break the next request.
		msg.ToolCalls = nil
		msg.Extra = maps.Clone(msg.Extra) // the chunks streamed may share it
		if msg.Extra == nil {
			msg.Extra = map[string]any{}
		}
		msg.Extra[ExtraDroppedCalls] = true
	}
	s.SetMessages(appended(ms, msg))
	return s, nil
}

// ToolChoiceAt is the tool choice of a turn's model call number call
// (counted from 0) when the turn may make max calls: the last one is made
// with tools forbidden, so that the turn ends with an answer from what
// the tools returned; the first is forced to call a tool when forced
// says so; the others may. last says the call may use no tool, so that a
// reply that calls one anyway has its calls dropped. NewAgent's model node
// chooses by it, and so does the default turn's agent_model.
func ToolChoiceAt(call, max int, forced bool) (choice schema.ToolChoice, last bool) {
	switch {
	case call >= max-1:
		return schema.ToolChoiceForbidden, true
	case call == 0 && forced:
		return schema.ToolChoiceForced, false
	default:
		return schema.ToolChoiceAllowed, false
	}
}

// ExtraDroppedCalls marks (in a message's Extra) an assistant reply whose
// tool calls the agent dropped: they came when no tool could be called.
const ExtraDroppedCalls = "prebuilt_dropped_tool_calls"

func joinPrompt(prompt, more string) string {
	if prompt == "" {
		return more
	}
	return prompt + "\n\n" + more
}

// withPrompt is the model's input: the system prompt, then the
// conversation.
func withPrompt(prompt string, ms []*schema.Message) []*schema.Message {
	if prompt == "" {
		return slices.Clone(ms)
	}
	return append([]*schema.Message{schema.SystemMessage(prompt)}, ms...)
}

// streamReply calls the model for a streamed reply, writes each chunk to
// the run's messages stream, and returns the whole reply.
func streamReply(ctx context.Context, m model.BaseChatModel, in []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	sr, err := m.Stream(ctx, in, opts...)
	if err != nil {
		return nil, err
	}
	defer sr.Close()
	var chunks []*schema.Message
	for {
		c, err := sr.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if c == nil {
			continue
		}
		graph.EmitMessage(ctx, c)
		chunks = append(chunks, c)
	}
	if len(chunks) == 0 {
		return nil, errors.New("the model sent an empty reply")
	}
	return schema.ConcatMessages(chunks)
}
