package graph

import (
	"context"
	"errors"
	"fmt"

	"github.com/cloudwego/eino/callbacks"
	"github.com/cloudwego/eino/compose"
	"go.opentelemetry.io/otel/trace"

	"github.com/sgrgraph/sgrgraph/checkpoint"
)

// Runnable is a compiled graph. It is safe for concurrent use: each run has
// its own state.
type Runnable[S any] struct {
	g          *StateGraph[S]
	plan       *plan
	eino       compose.Runnable[S, S]
	middleware []Middleware[S]
	defaults   nodeOptions
	merge      MergeFunc[S] // WithMerge, or nil
	reduce     reducer[S]   // the field reducers when there is no WithMerge
	store      checkpoint.Store
	codec      checkpoint.Codec[S]
	tracing    *tracing  // WithTracing, or nil
	verbs      *verbs[S] // Goto, fallbacks, deferred nodes, caches
}

// RunOption tunes one run.
type RunOption func(*runOptions)

type runOptions struct {
	modes         []StreamMode
	callbacks     []callbacks.Handler
	stopBefore    string
	thread, from  string
	before, after []string
	threadOptions     // what a run on a thread starts from (resume.go)
	context       any // WithContext
}

// StopBefore ends the run, without error, when it reaches the named node
// (in the graph or a subgraph), returning the state that node would have
// received. Tests use it to run a graph up to a node.
func StopBefore(node string) RunOption { return func(o *runOptions) { o.stopBefore = node } }

type stopKey struct{}

// WithCallbacks passes eino callback handlers to the run, so eino
// components inside nodes report to them.
func WithCallbacks(h ...callbacks.Handler) RunOption {
	return func(o *runOptions) { o.callbacks = append(o.callbacks, h...) }
}

// stopped carries the state out of a run that reached the StopBefore node.
type stopped[S any] struct{ s S }

func (stopped[S]) Error() string { return "stopped before node" }

// Invoke runs the graph on s and returns the state it ends with.
//
// With WithThread the run is recorded in the thread. On a thread that has
// a state, the input is merged into the latest state by the state's
// reducers (fields without one take the input's non-zero values; see
// ReplaceState) and the run starts from START; a thread that waits for
// input refuses a new input (*PendingError) unless ReplacePending. The
// zero input (nil for a pointer state) continues the thread where it
// stands: after a cut run, an UpdateState, or a pause (a node that asked
// asks again; Resume answers). A pause for input returns an
// *InterruptError.
func (r *Runnable[S]) Invoke(ctx context.Context, s S, opts ...RunOption) (S, error) {
	var o runOptions
	for _, opt := range opts {
		opt(&o)
	}
	return r.invoke(ctx, s, o)
}

func (r *Runnable[S]) invoke(ctx context.Context, s S, o runOptions) (S, error) {
	var zero S
	if o.thread == "" {
		if o.resuming || o.from != "" || o.hasAsNode {
			return zero, r.threaded(o.thread)
		}
		return r.run(ctx, s, o, nil)
	}
	s, tr, err := r.threadStart(ctx, s, o) // resume.go
	if err != nil {
		return zero, err
	}
	return r.run(ctx, s, o, tr)
}

// run runs the eino graph; tr, when not nil, records the run in a thread.
func (r *Runnable[S]) run(ctx context.Context, s S, o runOptions, tr *threadRun[S]) (out S, err error) {
	if tr != nil { // the checkpoints the run's durability held back (thread.go)
		defer func() { err = tr.finish(ctx, err) }()
	}
	ctx = r.begin(ctx, o)
	if r.plan.parallel() {
		inv := newInvocation[S]()
		inv.setBase(START, s)
		ctx = context.WithValue(ctx, invKey{}, inv)
	}
	if o.stopBefore != "" {
		ctx = context.WithValue(ctx, stopKey{}, o.stopBefore)
	}
	if tr != nil {
		ctx = context.WithValue(ctx, threadKey{}, tr)
	}
	var br *branchRun[S]
	if r.store != nil {
		ctx, br = r.branchesOf(ctx) // branches that pause, or go on after a pause (branches.go)
	}
	var eo []compose.Option
	if len(o.callbacks) > 0 {
		eo = append(eo, compose.WithCallbacks(o.callbacks...))
	}
	if r.tracing != nil { // a span for the run, and eino callbacks for its model and tool calls
		var span trace.Span
		ctx, span, eo = r.tracing.begin(ctx, r.g.name, eo)
		defer func() { r.tracing.end(span, err) }()
	}
	out, err = r.eino.Invoke(ctx, s, eo...)
	err = br.settle(ctx, err)
	out, err = r.settle(ctx, out, err)
	var stop stopped[S]
	if errors.As(err, &stop) && o.stopBefore != "" {
		return stop.s, nil
	}
	var paused *InterruptError
	if errors.As(err, &paused) {
		return out, paused
	}
	if err != nil {
		return out, fmt.Errorf("graph %s: %w", r.g.name, err)
	}
	if tr != nil {
		if err := tr.end(ctx, out); err != nil {
			return out, fmt.Errorf("graph %s: %w", r.g.name, err)
		}
	}
	return out, nil
}

// Name is the graph's name.
func (r *Runnable[S]) Name() string { return r.g.name }

// lambda is the eino function of a node: the node, its middleware and
// policy, and the bookkeeping of parallel branches around it.
func (r *Runnable[S]) lambda(name string) func(context.Context, S) (S, error) {
	fn := r.g.nodes[name].fn
	for i := len(r.middleware) - 1; i >= 0; i-- {
		fn = r.middleware[i](name, fn)
	}
	if r.tracing != nil { // inside the retries, so each attempt has its span; outside the middleware, which sees it
		fn = tracedNode(r.tracing, r.g.name, name, fn)
	}
	opts := r.defaults
	for _, o := range r.g.nodes[name].opts.list() {
		o(&opts)
	}
	call := r.cached(name, r.markFailure(name, attempts(name, perAttempt(fn, opts), opts)))
	policy := opts.retry != nil || opts.timeout != 0
	p := r.plan
	clone, fork, join := p.clones[name], p.forks[name], p.joins[name] != nil
	sendFork, sends := p.sends[name]
	branch := p.inBranch[name]
	durable := r.store != nil && !branch && !sends // a node a thread can be resumed at
	return r.around(name, func(ctx context.Context, s S) (S, error) {
		if stop, _ := ctx.Value(stopKey{}).(string); stop == name {
			return s, stopped[S]{s}
		}
		var inv *invocation[S]
		if p.parallel() {
			inv = invocationOf[S](ctx)
		}
		switch {
		case sends:
			if queued := inv.take(name); len(queued) > 0 {
				out, err := r.fanOut(ctx, name, call, policy, inv.base(sendFork), queued)
				if err == nil && fork { // a Send's node that fans out again: its merge is the base
					inv.setBase(name, out)
				}
				return out, err
			}
		case join:
			merged, ok, err := r.join(ctx, name, inv)
			if err != nil {
				var zero S
				return zero, err
			}
			if ok {
				s = merged
			}
		}
		if clone {
			s = copyState(s) // by Clone, or a deep copy when S has none
		}
		var tr *threadRun[S]
		if durable {
			tr = threadOf[S](ctx)
		}
		path := name
		if tr != nil {
			path = joinPath(nodePath(ctx), name)
			var err error
			if ctx, err = tr.enter(context.WithValue(ctx, nodePathKey{}, path), path, name, s); err != nil {
				return s, err
			}
		}
		var bt *branchTask[S]
		if branch && r.store != nil {
			ctx, s, bt = branchStart(ctx, name, s) // it may pause (branches.go)
		}
		yieldIfAsked(ctx)
		out, err := observe(ctx, name, call, s, !branch, policy)
		if tr != nil {
			err = tr.left(ctx, path, err)
		}
		if bt != nil {
			out, err = bt.end(s, out, err)
		}
		if err == nil && fork {
			inv.setBase(name, out)
		}
		return out, err
	})
}

type nodePathKey struct{}

// nodePath is the path of the node running in ctx in a thread's run
// ("react_agent/agent_tools"), or "".
func nodePath(ctx context.Context) string {
	p, _ := ctx.Value(nodePathKey{}).(string)
	return p
}

// list returns the options as setters, to lay them over the defaults.
func (o nodeOptions) list() []NodeOption {
	var l []NodeOption
	if o.retry != nil {
		l = append(l, WithRetry(*o.retry))
	}
	if o.timeout != 0 {
		l = append(l, WithTimeout(o.timeout))
	}
	return l
}
