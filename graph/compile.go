package graph

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/cloudwego/eino/compose"

	"github.com/sgrgraph/sgrgraph/checkpoint"
)

// DefaultMaxSteps is the superstep limit when Compile is given none: enough
// for a full turn with the default retry and tool-loop limits, low enough
// to stop a runaway loop quickly.
const DefaultMaxSteps = 100

// ErrMaxSteps is returned (wrapped) when a run reaches the step limit.
var ErrMaxSteps = compose.ErrExceedMaxSteps

// Cloner is a state that copies itself. Each parallel branch, Send and
// retried attempt works on its own copy: made by Clone when the state has
// it, else by the framework's deep copy (see Runnable.StateCopy).
type Cloner[S any] interface {
	Clone() S
}

// Middleware wraps every node of a graph: logging, timing, counting. It is
// given the node's name and the next function in the chain.
type Middleware[S any] func(node string, next NodeFunc[S]) NodeFunc[S]

// MergeFunc combines the states of parallel branches. base is the state
// before the fan-out (the fork's output for a join, the state the BySend
// router was given for Sends), a copy the function may change and return;
// branches are what the branches returned, in declaration order (edge
// order for a join, Send order for BySend). A join's branch holds base and
// its own changes, so a merge that adds up lists takes from each only what
// it added to base; a Send's run holds the state Sent and its changes.
type MergeFunc[S any] func(ctx context.Context, base S, branches []S) (S, error)

// CompileOption tunes Compile.
type CompileOption func(*compileOptions)

type compileOptions struct {
	maxSteps   int
	merge      any // MergeFunc[S]
	middleware []any
	defaults   []NodeOption
	store      checkpoint.Store
	version    int
	migrate    func(from int, data json.RawMessage) (json.RawMessage, error)
	tracing    *tracing
	cacheStore CacheStore
	noFusion   bool
}

// WithMaxSteps sets the superstep limit of a run.
func WithMaxSteps(n int) CompileOption { return func(o *compileOptions) { o.maxSteps = n } }

// WithMerge sets how parallel branches combine (see MergeFunc). Without
// it, a struct state is merged field by field with the reducers its
// `reduce` tags name (see [ReduceAppend] and the other reducer names).
func WithMerge[S any](fn func(ctx context.Context, base S, branches []S) (S, error)) CompileOption {
	return func(o *compileOptions) { o.merge = MergeFunc[S](fn) }
}

// WithMiddleware wraps every node; the first middleware is the outermost.
func WithMiddleware[S any](mw ...Middleware[S]) CompileOption {
	return func(o *compileOptions) {
		for _, m := range mw {
			o.middleware = append(o.middleware, m)
		}
	}
}

// WithNodeDefaults sets a policy for every node; a node's own options win.
func WithNodeDefaults(opts ...NodeOption) CompileOption {
	return func(o *compileOptions) { o.defaults = append(o.defaults, opts...) }
}

// Compile checks the graph and compiles it onto eino.
func (g *StateGraph[S]) Compile(ctx context.Context, opts ...CompileOption) (*Runnable[S], error) {
	o := compileOptions{maxSteps: DefaultMaxSteps}
	for _, opt := range opts {
		opt(&o)
	}
	r, err := g.compile(ctx, o)
	if err != nil {
		return nil, fmt.Errorf("graph %s: %w", g.name, err)
	}
	return r, nil
}

func (g *StateGraph[S]) compile(ctx context.Context, o compileOptions) (*Runnable[S], error) {
	if o.maxSteps < 1 {
		return nil, fmt.Errorf("max steps must be at least 1, got %d", o.maxSteps)
	}
	if err := g.validate(); err != nil {
		return nil, err
	}
	p, err := planOf(g)
	if err != nil {
		return nil, err
	}
	r := &Runnable[S]{g: g, plan: p, store: o.store, codec: checkpoint.Codec[S]{Version: max(o.version, 1), Migrate: o.migrate},
		tracing: o.tracing}
	if err := r.setOptions(o); err != nil {
		return nil, err
	}
	if err := r.compileVerbs(o); err != nil {
		return nil, err
	}
	cg, err := r.build(r.fuse(!o.noFusion))
	if err != nil {
		return nil, err
	}
	if r.eino, err = cg.Compile(ctx, compose.WithMaxRunSteps(o.maxSteps), compose.WithGraphName(g.name)); err != nil {
		return nil, fmt.Errorf("compile: %w", err)
	}
	return r, nil
}

// setOptions checks the typed options against S and keeps them.
func (r *Runnable[S]) setOptions(o compileOptions) error {
	var defaults nodeOptions
	for _, d := range o.defaults {
		d(&defaults)
	}
	if err := defaults.check(); err != nil {
		return fmt.Errorf("node defaults: %w", err)
	}
	r.defaults = defaults
	for _, m := range o.middleware {
		mw, ok := m.(Middleware[S])
		if !ok {
			return fmt.Errorf("middleware %T is not over the state type %T", m, *new(S))
		}
		r.middleware = append(r.middleware, mw)
	}
	switch m := o.merge.(type) {
	case nil:
		if r.plan.parallel() {
			merge, err := reduceMerge[S]()
			if err != nil {
				return fmt.Errorf("parallel branches need a merge: %w; or give graph.WithMerge", err)
			}
			r.reduce = merge
		}
	case MergeFunc[S]:
		r.merge = m
	default:
		return fmt.Errorf("merge %T is not over the state type %T", o.merge, *new(S))
	}
	return nil
}

// build turns the recorded graph into an eino graph: a node per group of
// the fusion (most groups are one node), named after its first node.
func (r *Runnable[S]) build(f *fusion) (*compose.Graph[S, S], error) {
	g, p := r.g, r.plan
	r.oneTask = r.oneTaskPerStep()
	var cg *compose.Graph[S, S]
	if r.oneTask { // each node opens its step itself (runState.open)
		cg = compose.NewGraph[S, S]()
	} else {
		cg = compose.NewGraph[S, S](compose.WithGenLocalState(localState)) // the run's state, for the step count
	}
	for _, name := range f.heads {
		fn := r.lambda(name)
		if plan := f.group[name]; len(plan) > 1 {
			fn = r.groupLambda(r.compiled(name, plan))
			r.direct = r.directRun(f, fn)
		}
		opts := []compose.GraphAddNodeOpt{compose.WithNodeName(name)}
		if !r.oneTask {
			opts = append(opts, compose.WithStatePreHandler(r.countTask(r.verbs.node(name).deferred)))
		}
		if err := cg.AddLambdaNode(name, compose.InvokableLambda(fn), opts...); err != nil {
			return nil, fmt.Errorf("node %q: %w", name, err)
		}
	}
	// An edge leaves the eino node of its source's group; one inside a
	// group is no eino edge at all.
	src := func(from string) string {
		if from == START {
			return START
		}
		return f.head[from]
	}
	inside := func(e edge) bool {
		return e.from != START && e.to != END && f.head[e.to] == f.head[e.from] && f.head[e.to] != e.to
	}
	var entries []string
	for _, e := range g.edges {
		var err error
		if inside(e) {
			continue
		}
		if e.from == START && r.store != nil {
			entries = append(entries, e.to)
			continue
		}
		switch {
		case r.needsGate(e.from, e.to): // a fallback, a deferred node: decided at run time
			cond := r.unlessPaused(e.from, always[S](e.to))
			if slices.Contains(p.joins[e.to], e.from) && !r.verbs.node(e.to).deferred {
				cond = r.arrive(e.from, e.to)
			}
			err = cg.AddBranch(src(e.from), compose.NewGraphMultiBranch(r.gate(e.from, cond), map[string]bool{e.to: true}))
		case slices.Contains(p.joins[e.to], e.from):
			err = cg.AddBranch(src(e.from), compose.NewGraphMultiBranch(r.arrive(e.from, e.to), map[string]bool{e.to: true}))
		case r.store != nil && p.inBranch[e.from]: // a branch node that paused leads nowhere (branches.go)
			err = cg.AddBranch(src(e.from), compose.NewGraphMultiBranch(r.unlessPaused(e.from, always[S](e.to)), map[string]bool{e.to: true}))
		default:
			err = cg.AddEdge(src(e.from), e.to)
		}
		if err != nil {
			return nil, fmt.Errorf("edge %s → %s: %w", e.from, e.to, err)
		}
	}
	for _, b := range g.branches {
		ends := map[string]bool{}
		for _, to := range b.targets {
			ends[to] = true
		}
		if err := cg.AddBranch(src(b.from), compose.NewGraphMultiBranch(r.gate(b.from, r.unlessPaused(b.from, r.routeOf(b))), ends)); err != nil {
			return nil, fmt.Errorf("conditional edges from %q: %w", b.from, err)
		}
	}
	if err := r.addHiddenEdges(cg); err != nil {
		return nil, err
	}
	if r.store == nil {
		return cg, nil
	}
	ends := map[string]bool{}
	for _, name := range g.order {
		if p.sends[name] == "" {
			ends[name] = true // a resumed run may enter here, a branch node that paused too
		}
	}
	for _, to := range entries {
		ends[to] = true
	}
	if err := cg.AddBranch(START, compose.NewGraphMultiBranch(r.entry(entries), ends)); err != nil {
		return nil, fmt.Errorf("edges from START: %w", err)
	}
	return cg, nil
}

// entry routes START: to the graph's entries, or, in a resumed run, to the
// node the run resumes at (or the subgraph on the way to it); the other
// routes from START then lead nowhere.
func (r *Runnable[S]) entry(entries []string) func(context.Context, S) (map[string]bool, error) {
	all := map[string]bool{}
	for _, to := range entries {
		all[to] = true
	}
	return func(ctx context.Context, _ S) (map[string]bool, error) {
		if to := resumeEntry[S](ctx); to != nil {
			return to, nil
		}
		return all, nil
	}
}

// condition adapts a router to eino: its keys become nodes, and the states
// of its Sends wait for their node in the run.
func (r *Runnable[S]) condition(b *branch[S]) func(context.Context, S) (map[string]bool, error) {
	only := map[string]map[string]bool{} // a target chosen alone; eino only reads the set
	for _, to := range b.targets {
		only[to] = map[string]bool{to: true}
	}
	return func(ctx context.Context, s S) (map[string]bool, error) {
		if b.from == START && r.store != nil {
			if resumeEntry[S](ctx) != nil {
				return map[string]bool{}, nil // the resumed run enters at its node(s)
			}
		}
		rt, err := b.router.route(ctx, s)
		if err != nil {
			return nil, fmt.Errorf("route from %q: %w", b.from, err)
		}
		if len(rt.keys) == 0 {
			return nil, fmt.Errorf("route from %q: the router chose no target", b.from)
		}
		next := only[b.targets[rt.keys[0]]]
		if len(rt.keys) > 1 {
			next = make(map[string]bool, len(rt.keys))
		}
		for _, k := range rt.keys {
			to, ok := b.targets[k]
			if !ok {
				return nil, fmt.Errorf("route from %q: no target for %q", b.from, k)
			}
			if len(rt.keys) > 1 {
				next[to] = true
			}
		}
		if len(rt.sends) > 0 {
			inv := invocationOf[S](ctx)
			for _, sd := range rt.sends {
				inv.queue(b.targets[sd.Key], sd.State)
			}
		}
		return next, nil
	}
}

// arrive is the edge from a branch's last node into a join: the join runs
// once every one of its predecessors has arrived.
func (r *Runnable[S]) arrive(from, join string) func(context.Context, S) (map[string]bool, error) {
	return func(ctx context.Context, s S) (map[string]bool, error) {
		if r.store != nil && haltedAt[S](ctx, from) {
			return map[string]bool{}, nil // the branch paused: it has not arrived
		}
		if invocationOf[S](ctx).arrive(join, from, s, len(r.plan.joins[join])) {
			return map[string]bool{join: true}, nil
		}
		return map[string]bool{}, nil
	}
}
