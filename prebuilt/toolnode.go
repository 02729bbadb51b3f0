package prebuilt

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"

	"github.com/sgrgraph/sgrgraph/graph"
	"github.com/sgrgraph/sgrgraph/guards/safety"
)

// DefaultToolTimeout bounds each attempt of a tool call when no
// ToolPolicy gives a timeout.
const DefaultToolTimeout = 30 * time.Second

// ToolPolicy is how a ToolNode runs a tool's calls.
type ToolPolicy struct {
	// Timeout bounds each attempt (DefaultToolTimeout when 0). A tool that
	// ignores its context is not waited for past it.
	Timeout time.Duration
	// Retry, when set, calls a failed tool again as graph.WithRetry runs a
	// node again, with the same defaults for its zero fields (3 attempts,
	// 500ms doubling); nil calls it once. Retry only tools that may run
	// twice: a call that timed out may have acted.
	Retry *graph.RetryPolicy
}

// ToolOption tunes a ToolNode (and NewAgent's, through WithToolOptions).
type ToolOption func(*toolConfig)

type toolConfig struct {
	all      ToolPolicy
	policies map[string]ToolPolicy
	approve  []string
	screen   safety.InjectionFinder
	unscreen bool
}

// WithToolPolicy sets the policy of the named tools, or of every tool
// that has none of its own when no name is given.
func WithToolPolicy(p ToolPolicy, tools ...string) ToolOption {
	return func(c *toolConfig) {
		if len(tools) == 0 {
			c.all = p
			return
		}
		if c.policies == nil {
			c.policies = map[string]ToolPolicy{}
		}
		for _, t := range tools {
			c.policies[t] = p
		}
	}
}

// WithApproval asks a person before each call of the named tools
// (LangGraph's interrupt before a tool, its human-in-the-loop): the run
// pauses with graph.Interrupt and an ApprovalRequest, and is resumed with
// a Decision (Approve, Edit or Reject). It needs a run on a thread: a
// graph compiled with graph.WithCheckpointer, run with graph.WithThread.
func WithApproval(tools ...string) ToolOption {
	return func(c *toolConfig) { c.approve = append(c.approve, tools...) }
}

// WithScreen reads the tools' results with f instead of the embedded
// lexicon's injection screen (safety.NewDefaultRules).
func WithScreen(f safety.InjectionFinder) ToolOption {
	return func(c *toolConfig) { c.screen = f }
}

// WithoutScreen passes the tools' results on unread: for tools whose
// results are your own data, or that screen them themselves (mcptools
// with Options.ScreenResults).
func WithoutScreen() ToolOption { return func(c *toolConfig) { c.unscreen = true } }

// ApprovalRequest is the payload of the interrupt that asks a person about
// a tool call (WithApproval).
type ApprovalRequest struct {
	Tool      string `json:"tool"`
	CallID    string `json:"call_id"`
	Arguments string `json:"arguments"` // JSON, as the model wrote them
}

// The actions of a Decision.
const (
	ActionApprove = "approve"
	ActionEdit    = "edit"
	ActionReject  = "reject"
)

// Decision is a person's answer to an ApprovalRequest, the value a paused
// run is resumed with.
type Decision struct {
	Action string `json:"action"` // ActionApprove, ActionEdit or ActionReject
	// Arguments replace the model's (ActionEdit): JSON for the tool.
	Arguments string `json:"arguments,omitempty"`
	// Reason is told to the model when the call is rejected.
	Reason string `json:"reason,omitempty"`
}

// Approve runs the call as the model wrote it.
func Approve() Decision { return Decision{Action: ActionApprove} }

// Edit runs the call with other arguments; the assistant message that
// made the call is changed to show them, so the conversation reads as if
// the model had written them.
func Edit(arguments string) Decision { return Decision{Action: ActionEdit, Arguments: arguments} }

// Reject does not run the call: its tool message tells the model it was
// rejected, and why.
func Reject(reason string) Decision { return Decision{Action: ActionReject, Reason: reason} }

// ToolNode runs the tool calls of the conversation's last assistant
// message, as LangGraph's ToolNode does: every call in parallel, each
// answered with a tool message in the order of the calls. A failure (an
// unknown tool, arguments that do not fit, an error, a panic, a timeout)
// is answered with "error: ..." so that the model can read it and
// recover; only the run's own cancellation fails the node.
//
// Every result is untrusted text: unless WithoutScreen, it is read with
// the Guardian's injection screen before the model sees it, and one that
// gives the assistant orders is replaced with Withheld (the reason is in
// the message's Extra[ExtraWithheld]). Errors are read the same way.
//
// Add it to a graph with its Run method: AddNode("tools", tn.Run).
type ToolNode[S Messages] struct {
	tools   map[string]tool.InvokableTool
	names   []string
	infos   []*schema.ToolInfo
	cfg     toolConfig
	approve map[string]bool
}

// NewToolNode makes a ToolNode of tools, each an eino tool.InvokableTool
// (NewTool, NewStateTool, mcptools' tools, any other).
func NewToolNode[S Messages](ctx context.Context, tools []tool.BaseTool, opts ...ToolOption) (*ToolNode[S], error) {
	n := &ToolNode[S]{tools: map[string]tool.InvokableTool{}, approve: map[string]bool{}}
	for _, o := range opts {
		o(&n.cfg)
	}
	var errs []error
	for i, t := range tools {
		if t == nil {
			errs = append(errs, fmt.Errorf("tool %d is nil", i))
			continue
		}
		info, err := t.Info(ctx)
		if err != nil {
			errs = append(errs, fmt.Errorf("tool %d: info: %w", i, err))
			continue
		}
		it, ok := t.(tool.InvokableTool)
		switch {
		case info.Name == "":
			errs = append(errs, fmt.Errorf("tool %d has no name", i))
			continue
		case !ok:
			errs = append(errs, fmt.Errorf("tool %s is not an eino tool.InvokableTool", info.Name))
			continue
		case n.tools[info.Name] != nil:
			errs = append(errs, fmt.Errorf("two tools are named %s", info.Name))
			continue
		}
		if r, ok := t.(reader); ok && r.stateType() != reflect.TypeFor[S]() {
			errs = append(errs, fmt.Errorf("tool %s reads a state of type %s, not this node's %s", info.Name, r.stateType(), reflect.TypeFor[S]()))
		}
		n.tools[info.Name] = it
		n.names = append(n.names, info.Name)
		n.infos = append(n.infos, info)
	}
	for _, name := range n.cfg.approve {
		n.approve[name] = true
	}
	for _, name := range append(slices.Clone(n.cfg.approve), sortedNames(n.cfg.policies)...) {
		if n.tools[name] == nil {
			errs = append(errs, fmt.Errorf("an option names tool %s, which is not one of %s", name, strings.Join(n.names, ", ")))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("tool node: %w", err)
	}
	return n, nil
}

// Infos are the tools' definitions, to offer them to a model.
func (n *ToolNode[S]) Infos() []*schema.ToolInfo { return slices.Clone(n.infos) }

// Run is the node: it answers the calls of the last assistant message
// that no tool message answers yet, after asking for the approvals
// WithApproval requires, and appends the answers to the conversation.
func (n *ToolNode[S]) Run(ctx context.Context, s S) (S, error) {
	ms := s.GetMessages()
	at, answered := pendingCalls(ms)
	if at < 0 {
		return s, errors.New("tool node: no assistant message with tool calls waits for their answers")
	}
	asked := ms[at]
	var calls []schema.ToolCall
	for _, c := range asked.ToolCalls {
		if !answered[c.ID] {
			calls = append(calls, c)
		}
	}
	// A person decides on every call before any runs: a pause runs the
	// node again from its start, and nothing has been done twice.
	rejected := make([]string, len(calls))
	edited := false
	for i, c := range calls {
		if !n.approve[c.Function.Name] {
			continue
		}
		d, err := graph.Interrupt[Decision](ctx, ApprovalRequest{Tool: c.Function.Name, CallID: c.ID, Arguments: c.Function.Arguments})
		if err != nil {
			return s, err
		}
		switch d.Action {
		case ActionApprove:
		case ActionEdit:
			calls[i].Function.Arguments = d.Arguments
			edited = true
		case ActionReject:
			rejected[i] = "The call was rejected by the user"
			if d.Reason != "" {
				rejected[i] += ": " + d.Reason
			}
			rejected[i] += ". It did not run."
		default:
			return s, fmt.Errorf("tool node: call %s of %s: the decision's action is %q, not %s, %s or %s",
				c.ID, c.Function.Name, d.Action, ActionApprove, ActionEdit, ActionReject)
		}
	}
	views := make([]any, len(calls))
	for i, c := range calls {
		if _, reads := n.tools[c.Function.Name].(reader); reads && rejected[i] == "" {
			v, err := viewOf(s)
			if err != nil {
				return s, fmt.Errorf("tool node: %w", err)
			}
			views[i] = v
		}
	}
	answers := make([]*schema.Message, len(calls))
	var wg sync.WaitGroup
	for i, c := range calls {
		if rejected[i] != "" {
			answers[i] = schema.ToolMessage(rejected[i], c.ID, schema.WithToolName(c.Function.Name))
			continue
		}
		wg.Go(func() { answers[i] = n.answer(ctx, c, views[i]) })
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return s, err // the run was cut: its calls' errors are no answers
	}
	out := appended(ms, answers...)
	if edited {
		m := *asked
		m.ToolCalls = slices.Clone(asked.ToolCalls)
		for i, c := range m.ToolCalls {
			if j := slices.IndexFunc(calls, func(d schema.ToolCall) bool { return d.ID == c.ID }); j >= 0 {
				m.ToolCalls[i].Function.Arguments = calls[j].Function.Arguments
			}
		}
		out[at] = &m
	}
	s.SetMessages(out)
	return s, nil
}

// Invoke runs one call under the node's policy for its tool (the
// timeout, the retries, a panic taken as the call's error) and returns
// the tool's output unscreened and unrecorded: for a tool step of your own
// that screens and records results its own way (the default turn's
// call_tool, which sets single articles of a search aside). A tool that
// reads the state (NewStateTool) has no state here, and fails.
func (n *ToolNode[S]) Invoke(ctx context.Context, call schema.ToolCall) (string, error) {
	return n.run(ctx, call.Function.Name, call.Function.Arguments, nil)
}

// answer runs one call and makes its tool message.
func (n *ToolNode[S]) answer(ctx context.Context, c schema.ToolCall, view any) *schema.Message {
	name := c.Function.Name
	out, err := n.run(ctx, name, c.Function.Arguments, view)
	var why string
	if err == nil {
		if why, err = n.screened(out); why != "" {
			out = Withheld
		}
	}
	if err != nil {
		text := err.Error()
		// The tool's own words are read apart from what wraps them, where
		// an order would not open its sentence.
		if w, serr := n.screened(text + "\n\n" + cause(err).Error()); w != "" || serr != nil {
			why, text = w, "its message was withheld: it gave instructions to the assistant"
			if serr != nil {
				text = serr.Error()
			}
		}
		out = "error: " + text
	}
	msg := schema.ToolMessage(out, c.ID, schema.WithToolName(name))
	if why != "" {
		msg.Extra = map[string]any{ExtraWithheld: why}
	}
	return msg
}

// cause is the innermost error err wraps.
func cause(err error) error {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err
		}
		err = next
	}
}

// screened says why text is withheld ("" when it is not), or why it
// could not be read: unscreened text is never passed on.
func (n *ToolNode[S]) screened(text string) (string, error) {
	if n.cfg.unscreen {
		return "", nil
	}
	f := n.cfg.screen
	if f == nil {
		var err error
		if f, err = defaultScreen(); err != nil {
			return "", fmt.Errorf("screening the result: %w", err)
		}
	}
	if inj, bad := findInjection(f, text); bad {
		return "prompt_injection(" + inj.String() + ")", nil
	}
	return "", nil
}

func (n *ToolNode[S]) policy(name string) ToolPolicy {
	if p, ok := n.cfg.policies[name]; ok {
		return p
	}
	return n.cfg.all
}

// run calls a tool under its policy: each attempt bounded, a failed one
// tried again when the policy retries.
func (n *ToolNode[S]) run(ctx context.Context, name, args string, view any) (string, error) {
	t, ok := n.tools[name]
	if !ok {
		return "", fmt.Errorf("unknown tool %q: the tools are %s", name, strings.Join(n.names, ", "))
	}
	if view != nil {
		ctx = context.WithValue(ctx, stateKey{}, view)
	}
	p := n.policy(name)
	timeout := p.Timeout
	if timeout <= 0 {
		timeout = DefaultToolTimeout
	}
	retry := graph.RetryPolicy{MaxAttempts: 1}
	if p.Retry != nil {
		retry = retryDefaults(*p.Retry)
	}
	for attempt := 1; ; attempt++ {
		out, err := once(ctx, t, args, timeout)
		if err == nil {
			return out, nil
		}
		if ctx.Err() != nil || attempt >= retry.MaxAttempts || !retry.RetryOn(err) {
			if attempt > 1 {
				err = fmt.Errorf("after %d attempts: %w", attempt, err)
			}
			return "", err
		}
		select {
		case <-time.After(wait(retry, attempt)):
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}

// once is one attempt, bounded by timeout even when the tool ignores its
// context; a panic is the attempt's error.
func once(ctx context.Context, t tool.InvokableTool, args string, timeout time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type result struct {
		out string
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result{err: fmt.Errorf("the tool panicked: %v", p)}
			}
		}()
		out, err := t.InvokableRun(ctx, args)
		done <- result{out, err}
	}()
	select {
	case r := <-done:
		if r.err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return "", fmt.Errorf("no answer within %s: %w", timeout, context.DeadlineExceeded)
		}
		return r.out, r.err
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return "", fmt.Errorf("no answer within %s: %w", timeout, context.DeadlineExceeded)
		}
		return "", ctx.Err()
	}
}

// retryDefaults fills a retry policy's zero fields as graph.WithRetry
// does.
func retryDefaults(p graph.RetryPolicy) graph.RetryPolicy {
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = 3
	}
	if p.InitialInterval == 0 {
		p.InitialInterval = 500 * time.Millisecond
	}
	if p.MaxInterval == 0 {
		p.MaxInterval = 128 * time.Second
	}
	if p.BackoffFactor < 1 {
		p.BackoffFactor = 2
	}
	if p.RetryOn == nil {
		p.RetryOn = func(error) bool { return true }
	}
	return p
}

// wait is the pause after attempt n.
func wait(p graph.RetryPolicy, n int) time.Duration {
	d := float64(p.InitialInterval)
	for i := 1; i < n && d < float64(p.MaxInterval); i++ {
		d *= p.BackoffFactor
	}
	d = min(d, float64(p.MaxInterval))
	if p.Jitter {
		d += d * 0.5 * rand.Float64()
	}
	return time.Duration(d)
}

// ToolsKey is the key ToolsCondition routes to when the last message calls
// tools; the other is graph.END.
const ToolsKey = "tools"

// ToolsCondition is LangGraph's tools_condition: it routes to ToolsKey when
// the conversation's last message is an assistant message that calls
// tools, else to graph.END. Map both keys to targets:
//
//	AddConditionalEdges("agent", prebuilt.ToolsCondition[S](),
//		map[string]string{prebuilt.ToolsKey: "tools", graph.END: graph.END})
func ToolsCondition[S Messages]() graph.Router[S] {
	return graph.ByFunc(func(_ context.Context, s S) (string, error) {
		if CallsTools(s.GetMessages()) {
			return ToolsKey, nil
		}
		return graph.END, nil
	})
}

func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
