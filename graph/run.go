package graph

import (
	"context"
	"errors"
	"fmt"
	"runtime"

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
	tracing    *tracing                            // WithTracing, or nil
	verbs      *verbs[S]                           // Goto, fallbacks, deferred nodes, caches
	oneTask    bool                                // every eino step runs one task: its node opens the step (oneTaskPerStep)
	direct     func(context.Context, S) (S, error) // the whole graph as one fused group, or nil (direct.go)
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
	e := r.envOf(ctx) // what every node reads of the context, looked up once for the run
	runOf(ctx).env = &e
	if r.direct != nil && len(eo) == 0 && !globalCallbacks() {
		out, err = r.direct(ctx, s)
	} else {
		out, err = r.eino.Invoke(ctx, s, eo...)
	}
	err = unfuse(err) // a fused node's failure, as eino names the node (fuse.go)
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

// node is a compiled node: its call (the function inside its middleware,
// tracing, policy and cache) and what the plan says of it.
type node[S any] struct {
	name     string
	call     NodeFunc[S]
	policy   bool // a retry or timeout: it reports each attempt itself
	clone    bool // it starts a branch: it works on a copy
	fork     bool // its output is a merge base
	join     bool // it merges the branches that reach it
	sends    bool // a BySend router may run it several times
	sendFork string
	branch   bool // its state is one branch's, not the run's
	durable  bool // a thread can be resumed at it
	handed   bool // a fallback node: it may take a failure over
	v        *nodeVerbs
}

// compileNode wraps a node in its middleware and policy.
func (r *Runnable[S]) compileNode(name string) *node[S] {
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
	p := r.plan
	n := &node[S]{name: name, call: r.cached(name, r.markFailure(name, attempts(name, perAttempt(fn, opts), opts))),
		policy: opts.retry != nil || opts.timeout != 0, clone: p.clones[name], fork: p.forks[name], join: p.joins[name] != nil,
		branch: p.inBranch[name], v: r.verbs.node(name)}
	n.sendFork, n.sends = p.sends[name]
	n.durable = r.store != nil && !n.branch && !n.sends
	for _, other := range r.verbs.nodes {
		n.handed = n.handed || other.fallback == name
	}
	return n
}

// env is what the nodes of a run read from its context, looked up once
// by run: a lookup that misses walks every layer eino adds to the context,
// and a node made six of them.
type env[S any] struct {
	rs    *runState
	inv   *invocation[S]
	outer *sink     // the sink of the node running this graph as a subgraph
	st    *streamer // the run's stream, or nil
	stop  string    // StopBefore's node
	yield bool      // Yielding
}

func (r *Runnable[S]) envOf(ctx context.Context) env[S] {
	e := env[S]{rs: runOf(ctx), outer: sinkOf(ctx), st: streamOf(ctx)}
	if r.plan.parallel() {
		e.inv = invocationOf[S](ctx)
	}
	e.stop, _ = ctx.Value(stopKey{}).(string)
	e.yield = yielding(ctx)
	return e
}

// envIn is the run's env, which run made before eino started it.
func (r *Runnable[S]) envIn(ctx context.Context) *env[S] {
	if e, ok := runOf(ctx).env.(*env[S]); ok {
		return e
	}
	e := r.envOf(ctx)
	return &e
}

// lambda is the eino function of a node that has an eino node of its own.
func (r *Runnable[S]) lambda(name string) func(context.Context, S) (S, error) {
	n := r.compileNode(name)
	return func(ctx context.Context, s S) (S, error) {
		e := r.envIn(ctx)
		if r.oneTask {
			if err := e.rs.open(false); err != nil {
				return s, err
			}
		}
		return r.runNode(ctx, e, n, s, 0)
	}
}

// body is a node's run inside around: the bookkeeping of parallel
// branches and threads around its call.
func (r *Runnable[S]) body(ctx context.Context, e *env[S], n *node[S], s S) (S, error) {
	name := n.name
	if e.stop == name {
		return s, stopped[S]{s}
	}
	inv := e.inv
	switch {
	case n.sends:
		if queued := inv.take(name); len(queued) > 0 {
			out, err := r.fanOut(ctx, name, n.call, n.policy, inv.base(n.sendFork), queued)
			if err == nil && n.fork { // a Send's node that fans out again: its merge is the base
				inv.setBase(name, out)
			}
			return out, err
		}
	case n.join:
		merged, ok, err := r.join(ctx, name, inv)
		if err != nil {
			var zero S
			return zero, err
		}
		if ok {
			s = merged
		}
	}
	if n.clone {
		s = copyState(s) // by Clone, or a deep copy when S has none
	}
	var tr *threadRun[S]
	if n.durable {
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
	if n.branch && r.store != nil {
		ctx, s, bt = branchStart(ctx, name, s) // it may pause (branches.go)
	}
	if e.yield {
		runtime.Gosched()
	}
	out, err := observeIn(ctx, e.st, name, n.call, s, !n.branch, n.policy)
	if tr != nil {
		err = tr.left(ctx, path, err)
	}
	if bt != nil {
		out, err = bt.end(s, out, err)
	}
	if err == nil && n.fork {
		inv.setBase(name, out)
	}
	return out, err
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
