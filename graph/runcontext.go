package graph

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
)

// runState is one run of one graph (a subgraph's run has its own): the
// step it is at, and what its nodes left for the edges that follow them to
// read (Goto targets, failures for a fallback, arrivals at a deferred
// node). It travels in the context; nothing of a run is kept in the
// Runnable, which many runs share.
type runState struct {
	maxSteps int

	// step and busy are written by eino's pre-handlers, which run one after
	// another before a step's tasks start (see countTask), and read by the
	// nodes of that step and the branches after it.
	step atomic.Int64 // the superstep, from 1
	busy atomic.Int64 // tasks of this step that are not deferred nodes
	ran  atomic.Bool  // a node started since the last pre-handler: the next one opens a step
	// A fused chain (fuse.go) runs several steps in one eino step: extra
	// counts the steps the chains of earlier eino steps added, pending the
	// most any chain of this one has added so far (parallel branches share
	// their steps, as on eino).
	extra, pending atomic.Int64

	env any // *env[S]: what the nodes read of the run's context (run.go)

	mu       sync.Mutex
	gotos    map[string]stamped[[]string] // node → the targets it named
	failures map[string]stamped[error]    // node → its final error, for its fallback
	handed   map[string]error             // fallback node → the error it takes over
	deferred map[string]*deferral         // deferred node → its arrivals
}

// stamped is a value a node left in a step: only the branches of that step
// read it, so a value from an earlier pass of a loop is never taken for a
// new one.
type stamped[T any] struct {
	step int64
	v    T
}

type runKey struct{}

func runOf(ctx context.Context) *runState {
	rs, _ := ctx.Value(runKey{}).(*runState)
	return rs
}

// begin opens a run's state; the run's context value (WithContext), when
// given, is visible to every node, subgraphs included.
func (r *Runnable[S]) begin(ctx context.Context, o runOptions) context.Context {
	rs := &runState{maxSteps: r.verbs.maxSteps}
	rs.ran.Store(true)
	ctx = context.WithValue(ctx, runKey{}, rs)
	if o.context != nil {
		ctx = context.WithValue(ctx, userContextKey{}, o.context)
	}
	return ctx
}

// settle finishes a run: a GotoParent ends it with the state of the node
// that called it, and a deferred node that never ran fails it.
func (r *Runnable[S]) settle(ctx context.Context, out S, err error) (S, error) {
	var lv leaving[S]
	if errors.As(err, &lv) {
		return lv.s, nil
	}
	if err != nil {
		return out, err
	}
	if node := runOf(ctx).stranded(); node != "" {
		return out, fmt.Errorf("graph %s: deferred node %q had not run when the run reached END: a branch went to END while it waited", r.g.name, node)
	}
	return out, nil
}

// countTask is eino's pre-handler of every node. eino calls the
// pre-handlers of a step one by one before any of its tasks starts, and
// starts no pre-handler of the next step before they all end: the first
// pre-handler after a node ran opens a new step.
func (r *Runnable[S]) countTask(deferred bool) func(context.Context, S, *runState) (S, error) {
	busy := r.deferring() // only a deferred node reads the count of busy tasks
	return func(_ context.Context, s S, rs *runState) (S, error) {
		if rs.ran.Swap(false) {
			if err := rs.open(busy); err != nil {
				return s, err
			}
		}
		if busy && !deferred {
			rs.busy.Add(1)
		}
		return s, nil
	}
}

// open starts a step. It fails the run past the step limit when fused
// chains ran several steps in one eino step, which eino does not count.
func (rs *runState) open(busy bool) error {
	rs.step.Add(1)
	if busy {
		rs.busy.Store(0)
	}
	if p := rs.pending.Load(); p > 0 {
		rs.extra.Add(rs.pending.Swap(0))
	}
	if rs.extra.Load() > 0 && rs.now(0) > int64(rs.maxSteps) {
		return errFusedMaxSteps
	}
	return nil
}

// oneTaskPerStep says whether every eino step of the graph runs one task:
// no node has more than one way out (an edge, a router, a fallback), no
// router fans out and no node is deferred. Its nodes then open their
// steps themselves, and the graph needs no pre-handler, nor the local
// state eino would look up and lock for one at every node. A graph with a
// checkpointer keeps them: a resumed run may enter at several nodes.
func (r *Runnable[S]) oneTaskPerStep() bool {
	if r.plan.parallel() || r.deferring() || r.store != nil {
		return false
	}
	exits := map[string]int{}
	for _, e := range r.g.edges {
		exits[e.from]++
	}
	for _, b := range r.g.branches {
		exits[b.from]++
	}
	for name, v := range r.verbs.nodes {
		if v.fallback != "" {
			exits[name]++
		}
	}
	for _, n := range exits {
		if n > 1 {
			return false
		}
	}
	return true
}

// deferring says whether some node of the graph is deferred.
func (r *Runnable[S]) deferring() bool {
	for _, n := range r.verbs.nodes {
		if n.deferred {
			return true
		}
	}
	return false
}

// localState gives eino the run's state as its local state, which its
// pre-handlers need.
func localState(ctx context.Context) *runState {
	if rs := runOf(ctx); rs != nil {
		return rs
	}
	return &runState{} // not through Runnable.run, which always opens one
}

type userContextKey struct{}

// WithContext gives the run a value every node can read with ContextOf
// (LangGraph's runtime context): the user, a database handle, a feature
// flag. Nodes share the value, so treat it as read-only. A subgraph sees
// its parent run's value.
func WithContext(c any) RunOption { return func(o *runOptions) { o.context = c } }

// ContextOf is the run's context value (WithContext) as a C; false when
// the run has none or it is not a C.
func ContextOf[C any](ctx context.Context) (C, bool) {
	c, ok := ctx.Value(userContextKey{}).(C)
	return c, ok
}

// RemainingSteps is how many steps the run of the node's graph may still
// take, this one included, as LangGraph counts it: 1 in the last step the
// step limit (WithMaxSteps) allows, when a node that routes on gets the run
// stopped with ErrMaxSteps. A subgraph counts its own steps against its own
// limit. Outside a run it is -1.
func RemainingSteps(ctx context.Context) int {
	rs := runOf(ctx)
	if rs == nil {
		return -1
	}
	at := rs.pending.Load() // a router after a fused chain: the chain's last step
	if sk := sinkOf(ctx); sk != nil && sk.nr.rs == rs {
		at = int64(sk.nr.at) // a node: its own step
	}
	return rs.maxSteps - int(rs.now(at)) + 1
}

// now is the step a node at place at of a fused chain runs in, as eino
// would count it without fusion.
func (rs *runState) now(at int64) int64 { return rs.step.Load() + rs.extra.Load() + at }

// advance records that a fused chain reached its place at in this eino
// step, and fails when that step is beyond the limit.
func (rs *runState) advance(at int) error {
	for {
		p := rs.pending.Load()
		if int64(at) <= p || rs.pending.CompareAndSwap(p, int64(at)) {
			break
		}
	}
	if rs.now(int64(at)) > int64(rs.maxSteps) {
		return errFusedMaxSteps
	}
	return nil
}

// nodeRun is one run of a node in a run of its graph: where its Gotos go
// and the error a fallback node takes over.
type nodeRun struct {
	name   string
	v      *nodeVerbs
	rs     *runState
	outer  *sink // the sink of the node running this graph as a subgraph, or nil
	handed error // ErrorOf
	at     int   // its step within a fused chain: RemainingSteps counts it
	root   sink

	dirty  atomic.Bool // set with any of the below: a node that did none of it skips the lock
	mu     sync.Mutex
	bad    error // the first Goto to a node it does not declare
	failed bool  // the node's own function failed, after its retries
}

// nodeCtx is a node's context: its run's, with the node's sink (sinkOf),
// made in one allocation.
type nodeCtx struct {
	context.Context
	nr nodeRun
}

func (c *nodeCtx) Value(key any) any {
	if key == (sinkKey{}) {
		return &c.nr.root
	}
	return c.Context.Value(key)
}

func (nr *nodeRun) misuse(err error) {
	nr.mu.Lock()
	if nr.bad == nil {
		nr.bad = err
	}
	nr.mu.Unlock()
	nr.dirty.Store(true)
}

// runNode runs a node in a run of its graph: it opens the node's run for
// Goto and ErrorOf, holds a deferred node back while other work is pending,
// turns a final failure into a step to the fallback, and hands the Goto
// targets to the edges. at is the node's step within its eino task: 0, or
// its place in a fused chain (fuse.go).
func (r *Runnable[S]) runNode(ctx context.Context, e *env[S], n *node[S], s S, at int) (S, error) {
	rs, v := e.rs, n.v
	if !rs.ran.Load() {
		rs.ran.Store(true)
	}
	if v.deferred {
		in, wait, err := r.deferredInput(ctx, rs, n.name, s)
		if wait || err != nil {
			return s, err
		}
		s = in
	}
	nc := &nodeCtx{Context: ctx, nr: nodeRun{name: n.name, v: v, rs: rs, outer: e.outer, at: at}}
	nr := &nc.nr
	if n.handed {
		nr.handed = rs.takeHanded(n.name)
	}
	nr.root.nr = nr
	var kept S
	if v.fallback != "" {
		kept = copyState(s) // the failed node may change its input before it fails
	}
	out, err := r.body(nc, e, n, s)
	if !nr.dirty.Load() { // no Goto, no misuse, no failure of its own
		if err != nil {
			return out, err
		}
		return out, nil
	}
	nr.mu.Lock()
	bad, failed := nr.bad, nr.failed
	nr.mu.Unlock()
	switch {
	case err == nil && bad != nil:
		return out, bad
	case err != nil && failed && v.fallback != "" && ctx.Err() == nil && !IsInterrupt(err):
		rs.setFailure(n.name, err)
		return kept, nil
	case err != nil:
		return out, err
	}
	to, up := nr.root.targets()
	if len(to) > 0 {
		rs.setGotos(n.name, to)
	}
	if len(up) > 0 {
		nr.outer.add(up, nil)
		return out, leaving[S]{out}
	}
	return out, nil
}

func (rs *runState) setGotos(node string, to []string) {
	rs.mu.Lock()
	if rs.gotos == nil {
		rs.gotos = map[string]stamped[[]string]{}
	}
	rs.gotos[node] = stamped[[]string]{rs.step.Load(), to}
	rs.mu.Unlock()
}

// gotosOf are the targets node named in the step that just ended.
func (rs *runState) gotosOf(node string) []string {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	g, ok := rs.gotos[node]
	if !ok || g.step != rs.step.Load() {
		return nil
	}
	return g.v
}

func (rs *runState) setFailure(node string, err error) {
	rs.mu.Lock()
	if rs.failures == nil {
		rs.failures = map[string]stamped[error]{}
	}
	rs.failures[node] = stamped[error]{rs.step.Load(), err}
	rs.mu.Unlock()
}

// failure is the error node failed with in the step that just ended.
func (rs *runState) failure(node string) error {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	f, ok := rs.failures[node]
	if !ok || f.step != rs.step.Load() {
		return nil
	}
	return f.v
}

func (rs *runState) hand(fallback string, err error) {
	rs.mu.Lock()
	if rs.handed == nil {
		rs.handed = map[string]error{}
	}
	rs.handed[fallback] = errors.Join(rs.handed[fallback], err)
	rs.mu.Unlock()
}

func (rs *runState) takeHanded(node string) error {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	err := rs.handed[node]
	delete(rs.handed, node)
	return err
}

// stranded names a deferred node that was waiting or about to run when
// the run ended.
func (rs *runState) stranded() string {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	var names []string
	for name, d := range rs.deferred {
		if d.armed || len(d.arrivals) > 0 {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		return ""
	}
	return names[0]
}
