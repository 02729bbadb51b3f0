package graph

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/cloudwego/eino/compose"
	"github.com/rs/zerolog"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/events"
	"github.com/sgrgraph/sgrgraph/outbound"
)

// DefaultMaxSteps is the superstep limit when Compile is given none: enough
// for a full turn with the default retry and tool-loop limits, low enough
// to stop a runaway loop quickly.
const DefaultMaxSteps = 100

// CompileOption tunes Compile.
type CompileOption func(*compileOptions)

type compileOptions struct {
	maxSteps   int
	stopBefore string
}

// WithMaxSteps sets the superstep limit of the graph (and of each subgraph).
func WithMaxSteps(n int) CompileOption { return func(o *compileOptions) { o.maxSteps = n } }

// StopBefore compiles the graph so that a run ends, without error, when it
// reaches the named node (in the graph or a subgraph), returning the state
// that node would have received. Tests use it to run a graph up to a node.
func StopBefore(node string) CompileOption { return func(o *compileOptions) { o.stopBefore = node } }

// stopped carries the state out of a run that reached the StopBefore node.
type stopped struct{ s *contracts.ChatState }

func (stopped) Error() string { return "stopped before node" }

// ErrMaxSteps is returned (wrapped) when a run reaches the step limit.
var ErrMaxSteps = compose.ErrExceedMaxSteps

// Runnable is a compiled graph. It is safe for concurrent use.
type Runnable struct {
	g        *StateGraph
	runnable compose.Runnable[*contracts.ChatState, *contracts.ChatState]
}

// Compile checks the graph and compiles it onto eino.
func (g *StateGraph) Compile(ctx context.Context, opts ...CompileOption) (*Runnable, error) {
	o := compileOptions{maxSteps: DefaultMaxSteps}
	for _, opt := range opts {
		opt(&o)
	}
	if o.maxSteps < 1 {
		return nil, fmt.Errorf("graph %s: max steps must be at least 1, got %d", g.name, o.maxSteps)
	}
	if err := g.validate(); err != nil {
		return nil, err
	}
	if o.stopBefore != "" && !g.has(o.stopBefore) {
		return nil, fmt.Errorf("graph %s: stop before %q: no such node", g.name, o.stopBefore)
	}
	cg, err := g.build(o)
	if err != nil {
		return nil, fmt.Errorf("graph %s: %w", g.name, err)
	}
	r, err := cg.Compile(ctx, compose.WithMaxRunSteps(o.maxSteps), compose.WithGraphName(g.name))
	if err != nil {
		return nil, fmt.Errorf("graph %s: compile: %w", g.name, err)
	}
	return &Runnable{g: g, runnable: r}, nil
}

// build turns the recorded graph into an eino graph, subgraphs included.
func (g *StateGraph) build(o compileOptions) (*compose.Graph[*contracts.ChatState, *contracts.ChatState], error) {
	cg := compose.NewGraph[*contracts.ChatState, *contracts.ChatState]()
	for _, name := range g.order {
		n := g.nodes[name]
		var err error
		if n.sub != nil {
			var sub *compose.Graph[*contracts.ChatState, *contracts.ChatState]
			if sub, err = n.sub.build(o); err != nil {
				return nil, err
			}
			err = cg.AddGraphNode(name, sub, compose.WithNodeName(name),
				compose.WithGraphCompileOptions(compose.WithMaxRunSteps(o.maxSteps), compose.WithGraphName(n.sub.name)))
		} else {
			fn := instrument(name, n.fn)
			if name == o.stopBefore {
				fn = func(_ context.Context, s *contracts.ChatState) (*contracts.ChatState, error) { return nil, stopped{s} }
			}
			err = cg.AddLambdaNode(name, compose.InvokableLambda(fn), compose.WithNodeName(name))
		}
		if err != nil {
			return nil, fmt.Errorf("node %q: %w", name, err)
		}
	}
	for _, e := range g.edges {
		if err := cg.AddEdge(e.from, e.to); err != nil {
			return nil, fmt.Errorf("edge %s → %s: %w", e.from, e.to, err)
		}
	}
	for _, b := range g.branches {
		ends := map[string]bool{}
		for _, to := range b.targets {
			ends[to] = true
		}
		if err := cg.AddBranch(b.from, compose.NewGraphBranch(b.condition(), ends)); err != nil {
			return nil, fmt.Errorf("conditional edges from %q: %w", b.from, err)
		}
	}
	return cg, nil
}

// condition adapts a router to eino: the key it returns becomes a node.
func (b branch) condition() func(context.Context, *contracts.ChatState) (string, error) {
	return func(ctx context.Context, s *contracts.ChatState) (string, error) {
		key, err := b.route(ctx, s)
		if err != nil {
			return "", fmt.Errorf("route from %q: %w", b.from, err)
		}
		to, ok := b.targets[key]
		if !ok {
			return "", fmt.Errorf("route from %q: no target for %q", b.from, key)
		}
		return to, nil
	}
}

// instrument times a node into the state's diagnostics and logs it with
// the session, turn and node.
func instrument(name string, fn NodeFunc) func(context.Context, *contracts.ChatState) (*contracts.ChatState, error) {
	return func(ctx context.Context, s *contracts.ChatState) (*contracts.ChatState, error) {
		if s == nil {
			return nil, fmt.Errorf("node %q: nil state", name)
		}
		log := zerolog.Ctx(ctx).With().Str("session", s.SessionID).Int("turn", s.Turn).Str("node", name).Logger()
		ctx = events.WithNode(log.WithContext(ctx), name)
		events.Emit(ctx, contracts.Event{Kind: contracts.EventNodeStart})
		calls, errs := len(s.Diagnostics.ModelCalls), len(s.Diagnostics.Errors)
		var mu sync.Mutex
		var retries []contracts.Retry
		sink := ctx
		ctx = outbound.WithObserver(ctx, func(a outbound.Attempt) {
			r := contracts.Retry{Node: name, Service: a.Service, Try: a.Try, Status: a.Status,
				Error: a.Error, WaitMS: float64(a.Wait.Microseconds()) / 1000, Retried: a.Retried}
			mu.Lock()
			retries = append(retries, r)
			mu.Unlock()
			// A live view must know: tokens of a cut stream are followed by the whole reply again.
			events.Emit(sink, contracts.Event{Kind: contracts.EventRetry, Error: fmt.Sprintf("%s try %d: %s", a.Service, a.Try, a.Error)})
		})
		start := time.Now()
		out, err := fn(ctx, s)
		took := time.Since(start)
		ms := float64(took.Microseconds()) / 1000
		if err != nil {
			log.Error().Err(err).Dur("took", took).Msg("node failed")
			events.Emit(ctx, contracts.Event{Kind: contracts.EventNodeEnd, DurationMS: ms, Error: err.Error()})
			return nil, fmt.Errorf("node %q: %w", name, err)
		}
		if out == nil {
			return nil, fmt.Errorf("node %q: returned a nil state", name)
		}
		run := contracts.NodeRun{Node: name, DurationMS: ms}
		if calls <= len(out.Diagnostics.ModelCalls) {
			for _, c := range out.Diagnostics.ModelCalls[calls:] {
				run.PromptTokens += c.PromptTokens
				run.CompletionTokens += c.CompletionTokens
				out.Diagnostics.Tokens.Estimated = out.Diagnostics.Tokens.Estimated || c.TokensEstimated
			}
		}
		out.Diagnostics.Tokens.Prompt += run.PromptTokens
		out.Diagnostics.Tokens.Completion += run.CompletionTokens
		out.Diagnostics.Nodes = append(out.Diagnostics.Nodes, run)
		mu.Lock()
		out.Diagnostics.Retries = append(out.Diagnostics.Retries, retries...)
		mu.Unlock()
		if errs <= len(out.Diagnostics.Errors) {
			for _, e := range out.Diagnostics.Errors[errs:] {
				log.Warn().Str("recovered", e.Message).Msg("node recovered from an error")
			}
		}
		events.Emit(ctx, contracts.Event{Kind: contracts.EventNodeEnd, DurationMS: ms})
		log.Debug().Dur("took", took).Msg("node done")
		return out, nil
	}
}

// Invoke runs one turn on s. Extra eino options (callbacks, a per-run step
// limit) pass through.
func (r *Runnable) Invoke(ctx context.Context, s *contracts.ChatState, opts ...compose.Option) (*contracts.ChatState, error) {
	if s == nil {
		return nil, errors.New("graph " + r.g.name + ": nil state")
	}
	out, err := r.runnable.Invoke(ctx, s, opts...)
	var stop stopped
	if errors.As(err, &stop) {
		return stop.s, nil
	}
	return out, err
}

// Graph is the builder this was compiled from, for diagrams.
func (r *Runnable) Graph() *StateGraph { return r.g }

// has reports whether the graph or one of its subgraphs has the node.
func (g *StateGraph) has(name string) bool {
	for _, n := range g.order {
		if n == name || g.nodes[n].sub != nil && g.nodes[n].sub.has(name) {
			return true
		}
	}
	return false
}
