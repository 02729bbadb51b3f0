package graph

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"slices"
	"sync/atomic"
	"time"

	"github.com/cloudwego/eino/compose"
)

// Fusion of plain chains.
//
// An eino step costs microseconds (its channels, its task manager, its
// maps), a node's own bookkeeping a fraction of one. So Compile runs a
// straight chain of plain nodes, and a fan-out of plain branches into their
// join, as one eino node that calls them in order: each node still runs
// through runNode, so it emits the same stream events, tracing spans and
// debug records, and counts its own step for RemainingSteps and the step
// limit. The diagram and the node list are the graph's, node by node.
//
// A node is plain when nothing about it needs an eino boundary: no retry
// or timeout, cache, WithDefer, WithFallback, WithDestinations or Send;
// a node that is some node's fallback, a join outside a fused fan-out or
// a router's target starts a group, since eino decides whether it runs. A
// Subgraph node fuses like any other: its run is its own eino graph, its
// GotoParent needs destinations (so no fusion), and its errors are
// rewritten as eino would name the node (unfuse). A graph with a
// checkpointer fuses nothing: each node writes its checkpoint and a
// resumed run enters at any of them. WithoutFusion turns fusion off.

// WithoutFusion gives every node an eino node of its own. Fusion changes
// nothing a graph's nodes, stream, tracing or errors show; only eino's own
// callbacks (WithCallbacks) see a fused chain as one node, named after its
// first node, and a graph fused whole runs without eino when no eino
// handler is given or global (direct.go). Use it for a handler that
// watches the graph's nodes.
func WithoutFusion() CompileOption { return func(o *compileOptions) { o.noFusion = true } }

// group is the nodes one eino node runs: stages in order, each a node or
// parallel branches (whose join is the next stage).
type group[S any] struct {
	head   string
	stages []stage[S]
}

type stage[S any] struct {
	node     *node[S]
	branches [][]*node[S] // parallel chains from the node before into join
	join     string
	tails    []string // the last node of each branch
}

// fusion is the grouping of a graph's nodes.
type fusion struct {
	heads []string          // the nodes that have an eino node, in the graph's order
	head  map[string]string // node → the head of its group
	group map[string][]stagePlan
}

// stagePlan is a stage by node names.
type stagePlan struct {
	node     string
	branches [][]string
	join     string
}

// fuse groups the nodes: every node is in one group, most alone.
func (r *Runnable[S]) fuse(enabled bool) *fusion {
	g, p := r.g, r.plan
	f := &fusion{head: map[string]string{}, group: map[string][]stagePlan{}}
	preds := map[string]map[string]bool{}
	addPred := func(to, from string) {
		if preds[to] == nil {
			preds[to] = map[string]bool{}
		}
		preds[to][from] = true
	}
	out := map[string][]string{}
	routed := map[string]bool{}
	for _, e := range g.edges {
		out[e.from] = append(out[e.from], e.to)
		addPred(e.to, e.from)
	}
	for _, b := range g.branches {
		routed[b.from] = true
		for _, to := range b.targets {
			addPred(to, b.from)
		}
	}
	for name, v := range r.verbs.nodes {
		if v.fallback != "" {
			routed[name] = true
			addPred(v.fallback, name)
		}
		if v.deferred {
			routed[name] = true
		}
	}
	plain := map[string]bool{}
	if enabled && r.store == nil {
		for _, name := range g.order {
			opts := r.defaults
			for _, o := range g.nodes[name].opts.list() {
				o(&opts)
			}
			v := r.verbs.node(name)
			plain[name] = opts.retry == nil && opts.timeout == 0 && r.verbs.cache[name] == nil && !v.deferred &&
				v.fallback == "" && len(v.dests) == 0 && p.sends[name] == ""
		}
	}
	only := func(n, from string) bool { return len(preds[n]) == 1 && preds[n][from] }
	assigned := map[string]bool{}
	// follows says whether next goes on a chain after from.
	follows := func(from, next string) bool {
		return next != END && plain[next] && !assigned[next] && only(next, from) && p.joins[next] == nil
	}
	joinable := func(n string) bool { return plain[n] && !assigned[n] }
	grow := func(h string) {
		stages := []stagePlan{{node: h}}
		assigned[h] = true
		for cur := h; plain[cur] && !routed[cur]; {
			outs := out[cur]
			if len(outs) == 1 && follows(cur, outs[0]) {
				cur = outs[0]
				assigned[cur] = true
				stages = append(stages, stagePlan{node: cur})
				continue
			}
			if len(outs) < 2 {
				break
			}
			branches, join, ok := r.block(cur, outs, out, routed, follows, joinable, preds)
			if !ok {
				break
			}
			for _, b := range branches {
				for _, n := range b {
					assigned[n] = true
				}
			}
			assigned[join] = true
			stages = append(stages, stagePlan{branches: branches, join: join}, stagePlan{node: join})
			cur = join
		}
		f.heads = append(f.heads, h)
		f.group[h] = stages
		for _, st := range stages {
			f.head[st.node] = h
			for _, b := range st.branches {
				for _, n := range b {
					f.head[n] = h
				}
			}
		}
	}
	// Breadth first from START, so a chain is met at its first node; then
	// whatever START does not reach.
	succ := successors(g)
	for _, name := range g.order {
		if to := r.verbs.node(name).fallback; to != "" {
			succ[name] = append(succ[name], to)
		}
	}
	seen := map[string]bool{START: true}
	queue := []string{START}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if n != START && !assigned[n] {
			grow(n)
		}
		for _, m := range succ[n] {
			if m != END && !seen[m] {
				seen[m] = true
				queue = append(queue, m)
			}
		}
	}
	for _, n := range g.order {
		if !assigned[n] {
			grow(n)
		}
	}
	order := map[string]int{}
	for i, n := range g.order {
		order[n] = i
	}
	slices.SortFunc(f.heads, func(a, b string) int { return order[a] - order[b] })
	return f
}

// block finds the parallel branches a fork's edges start, when each is a
// chain of plain nodes and all of them, and nothing else, lead into one
// plain join whose fork is this one.
func (r *Runnable[S]) block(fork string, outs []string, out map[string][]string, routed map[string]bool,
	follows func(from, next string) bool, joinable func(string) bool, preds map[string]map[string]bool) ([][]string, string, bool) {
	p := r.plan
	join := ""
	tails := map[string]bool{}
	branches := make([][]string, len(outs))
	for i, first := range outs {
		prev, n := fork, first
		for {
			if !follows(prev, n) || routed[n] || len(out[n]) != 1 {
				return nil, "", false
			}
			branches[i] = append(branches[i], n)
			next := out[n][0]
			if p.joins[next] != nil {
				if join != "" && next != join {
					return nil, "", false
				}
				join = next
				tails[n] = true
				break
			}
			prev, n = n, next
		}
	}
	if join == "" || p.forkOf[join] != fork || len(p.joins[join]) != len(outs) || len(preds[join]) != len(outs) {
		return nil, "", false
	}
	for _, t := range p.joins[join] {
		if !tails[t] {
			return nil, "", false
		}
	}
	for t := range preds[join] {
		if !tails[t] {
			return nil, "", false
		}
	}
	if !joinable(join) {
		return nil, "", false
	}
	return branches, join, true
}

// compiled turns a group's plan into its nodes.
func (r *Runnable[S]) compiled(head string, plan []stagePlan) *group[S] {
	g := &group[S]{head: head}
	for _, sp := range plan {
		if sp.branches == nil {
			g.stages = append(g.stages, stage[S]{node: r.compileNode(sp.node)})
			continue
		}
		st := stage[S]{join: sp.join}
		for _, b := range sp.branches {
			var chain []*node[S]
			for _, n := range b {
				chain = append(chain, r.compileNode(n))
			}
			st.branches = append(st.branches, chain)
			st.tails = append(st.tails, b[len(b)-1])
		}
		g.stages = append(g.stages, st)
	}
	return g
}

// groupLambda is the eino function of a group of several nodes.
func (r *Runnable[S]) groupLambda(g *group[S]) func(context.Context, S) (S, error) {
	return func(ctx context.Context, s S) (out S, err error) {
		e := r.envIn(ctx)
		if r.oneTask {
			if err := e.rs.open(false); err != nil {
				return s, err
			}
		}
		done := ctx.Done()
		cur := g.head
		defer func() {
			if p := recover(); p != nil { // as eino reports a node's panic
				err = &fusedFail{node: cur, err: &panicError{info: p, stack: debug.Stack()}}
			}
		}()
		at := 0
		for _, st := range g.stages {
			if st.node == nil {
				if s, err = r.branches(ctx, e, st, s, at); err != nil {
					return s, err
				}
				at += st.depth()
				continue
			}
			if at > 0 {
				if err := nextStep(ctx, done, e.rs, at); err != nil {
					return s, err
				}
			}
			cur = st.node.name
			next, err := r.runNode(ctx, e, st.node, s, at)
			if err != nil {
				return next, fused(cur, err)
			}
			s = next
			at++
		}
		return s, nil
	}
}

// depth is the steps the longest branch takes.
func (st stage[S]) depth() int {
	d := 0
	for _, b := range st.branches {
		d = max(d, len(b))
	}
	return d
}

// branches runs parallel branches and hands their states to the join. A
// branch that fails stops the others at their next node (eino would not
// start a later step). The branches are shared out (shareOut): this
// goroutine and helpers take the next one until none is left, so branches
// that take a while run each on its own goroutine, and quick ones do not
// pay for waking ten.
func (r *Runnable[S]) branches(ctx context.Context, e *env[S], st stage[S], s S, at int) (S, error) {
	done := ctx.Done()
	outs := make([]S, len(st.branches))
	errs := make([]error, len(st.branches))
	var failedAt atomic.Int64
	failedAt.Store(math.MaxInt64)
	fail := func(i, d int, err error) {
		errs[i] = err
		for {
			f := failedAt.Load()
			if int64(d) >= f || failedAt.CompareAndSwap(f, int64(d)) {
				return
			}
		}
	}
	run := func(i int) {
		cur := ""
		defer func() {
			if p := recover(); p != nil {
				fail(i, at, &fusedFail{node: cur, err: &panicError{info: p, stack: debug.Stack()}})
			}
		}()
		bs := s
		for j, n := range st.branches[i] {
			d := at + j
			if failedAt.Load() < int64(d) {
				errs[i] = errBranchStopped
				return
			}
			if err := nextStep(ctx, done, e.rs, d); err != nil {
				fail(i, d, err)
				return
			}
			cur = n.name
			out, err := r.runNode(ctx, e, n, bs, d)
			if err != nil {
				fail(i, d, fused(cur, err))
				return
			}
			bs = out
		}
		outs[i] = bs
	}
	shareOut(len(st.branches), run)
	for _, err := range errs {
		if err != nil && !errors.Is(err, errBranchStopped) {
			return s, err
		}
	}
	need := len(r.plan.joins[st.join])
	for i, t := range st.tails {
		e.inv.arrive(st.join, t, outs[i], need)
	}
	return s, nil
}

var errBranchStopped = errors.New("branch stopped: another failed")

// nextStep is the boundary eino would have put before the node at place
// at of a fused chain: a run whose context ended stops there, and so does
// one past its step limit.
func nextStep(ctx context.Context, done <-chan struct{}, rs *runState, at int) error {
	select {
	case <-done:
		return &fusedFail{canceled: ctx.Err()}
	default:
	}
	return rs.advance(at)
}

// fusedFail is the failure of a node inside a fused group. eino names the
// group's eino node in its error; run (by einoError) makes it the error
// eino gives for the node itself. It has no Unwrap, so that eino takes it
// as a plain node error.
type fusedFail struct {
	node     string
	err      error
	maxSteps bool  // the step limit, counted over the fused steps
	canceled error // the run's context ended before the node
}

func (f *fusedFail) Error() string {
	switch {
	case f.maxSteps:
		return compose.ErrExceedMaxSteps.Error()
	case f.canceled != nil:
		return f.canceled.Error()
	}
	return f.err.Error()
}

var errFusedMaxSteps = &fusedFail{maxSteps: true}

// fused marks a node's error for run; eino's own interrupts go through as
// they are.
func fused(node string, err error) error {
	if _, ok := compose.ExtractInterruptInfo(err); ok {
		return err
	}
	if _, ok := compose.IsInterruptRerunError(err); ok {
		return err
	}
	return &fusedFail{node: node, err: err}
}

// panicError is a node's panic, as eino reports one.
type panicError struct {
	info  any
	stack []byte
}

func (p *panicError) Error() string {
	return fmt.Sprintf("panic error: %v, \nstack: %s", p.info, string(p.stack))
}

// unfuse turns a fused node's failure back into the error eino gives
// when the node has an eino node of its own. What run reads of an error
// by its type (a stop, a GotoParent, an interrupt) is handed on as it is;
// any other error is wrapped by eino itself for the node's name, so its
// text and node path are eino's.
func unfuse(err error) error {
	if err == nil {
		return nil
	}
	var f *fusedFail
	if !errors.As(err, &f) {
		return err
	}
	if f.maxSteps {
		return einoMaxSteps()
	}
	if f.canceled != nil {
		return einoCanceled(f.canceled)
	}
	var it *InterruptError
	if errors.As(f.err, &it) || errors.As(f.err, new(interface{ stopBefore() })) || isLeaving(f.err) {
		return f.err
	}
	return einoNodeError(f.node, f.err)
}

// isLeaving says whether err is a GotoParent's way out of a subgraph.
func isLeaving(err error) bool {
	var l interface{ leavingGraph() }
	return errors.As(err, &l)
}

func (leaving[S]) leavingGraph() {}

// einoNodeError is the error eino gives for a node of that name failing
// with err: a one-node eino graph fails with it.
func einoNodeError(name string, err error) error {
	g := compose.NewGraph[struct{}, struct{}]()
	fail := func(context.Context, struct{}) (struct{}, error) { return struct{}{}, err }
	if g.AddLambdaNode(name, compose.InvokableLambda(fail)) != nil || g.AddEdge(compose.START, name) != nil ||
		g.AddEdge(name, compose.END) != nil {
		return err
	}
	run, cerr := g.Compile(context.Background())
	if cerr != nil {
		return err
	}
	_, got := run.Invoke(context.Background(), struct{}{})
	if got == nil {
		return err
	}
	return got
}

// einoCanceled is the error eino gives a run whose context ended between
// two steps: a one-node eino graph started on such a context fails with it.
func einoCanceled(cause error) error {
	ctx, cancel := context.WithCancel(context.Background())
	if errors.Is(cause, context.DeadlineExceeded) {
		ctx, cancel = context.WithDeadline(context.Background(), time.Unix(0, 0))
	}
	cancel()
	g := compose.NewGraph[struct{}, struct{}]()
	pass := func(context.Context, struct{}) (struct{}, error) { return struct{}{}, nil }
	_ = g.AddLambdaNode("n", compose.InvokableLambda(pass))
	_ = g.AddEdge(compose.START, "n")
	_ = g.AddEdge("n", compose.END)
	run, err := g.Compile(context.Background())
	if err == nil {
		_, err = run.Invoke(ctx, struct{}{})
	}
	if err == nil {
		return fmt.Errorf("context has been canceled: %w", cause)
	}
	return err
}

// einoMaxSteps is the error eino gives a run past its step limit.
func einoMaxSteps() error {
	g := compose.NewGraph[struct{}, struct{}]()
	pass := func(context.Context, struct{}) (struct{}, error) { return struct{}{}, nil }
	_ = g.AddLambdaNode("a", compose.InvokableLambda(pass))
	_ = g.AddLambdaNode("b", compose.InvokableLambda(pass))
	_ = g.AddEdge(compose.START, "a")
	_ = g.AddEdge("a", "b")
	_ = g.AddEdge("b", compose.END)
	run, err := g.Compile(context.Background(), compose.WithMaxRunSteps(1))
	if err == nil {
		_, err = run.Invoke(context.Background(), struct{}{})
	}
	if err == nil || !errors.Is(err, compose.ErrExceedMaxSteps) {
		return fmt.Errorf("%w", compose.ErrExceedMaxSteps)
	}
	return err
}
