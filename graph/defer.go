package graph

import (
	"context"
	"fmt"
	"slices"
)

// WithDefer makes the node wait, once a branch reaches it, until every
// other pending branch of the run is done (LangGraph's defer): the node
// runs in a step of its own at the end, once, on the merge of the states
// that reached it (by WithMerge or the reducers, over the state of the fork
// they started from). Use it after a fan-out whose branches differ in
// length, or where a router may pick only some of them, which a plain join
// would wait for forever. The Sends of a BySend router finish within their
// node's step, so they are always done by then.
//
// eino's graph has no step that waits for the others, so a waiting node is
// run again, doing nothing, in each step that has other work: it costs no
// extra steps, only its final one. A branch that goes to END while it waits
// ends eino's run; the run then fails naming the node rather than skip it.
// In a thread, a branch that pauses for input (Interrupt) is pending too:
// the node holds what reached it, the run pauses, and the checkpoint keeps
// those states; the resumed run enters the node again beside the paused
// branches, and it runs once they are done.
func WithDefer() NodeOption { return func(o *nodeOptions) { o.deferred = true } }

// deferral is a deferred node's part of a run.
type deferral struct {
	arrivals map[string]any // predecessor → the state it arrived with
	armed    bool           // a step of the node is on its way
	waited   int64          // the last step it waited in
	held     bool           // it waits for a branch paused for input: it takes no step until the run resumes
}

func (rs *runState) deferralOf(node string) *deferral {
	if rs.deferred == nil {
		rs.deferred = map[string]*deferral{}
	}
	d := rs.deferred[node]
	if d == nil {
		d = &deferral{}
		rs.deferred[node] = d
	}
	return d
}

// arrive records a branch reaching a deferred node and says whether the
// edge should start the node: only when no other edge has this step, for
// eino runs a node once per step and cannot merge two inputs of a state.
func (rs *runState) arrive(node, from string, s any) bool {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	d := rs.deferralOf(node)
	if d.arrivals == nil {
		d.arrivals = map[string]any{}
	}
	d.arrivals[from] = s
	if d.armed {
		return false
	}
	d.armed = true
	return true
}

// waiting says whether a deferred node waited in the step that just ended.
func (rs *runState) waiting(node string) bool {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	d := rs.deferred[node]
	return d != nil && d.waited == rs.step.Load()
}

// deferredInput decides, as a deferred node's step starts, whether it
// waits (other tasks share the step) or runs, and on what state.
func (r *Runnable[S]) deferredInput(ctx context.Context, rs *runState, name string, s S) (S, bool, error) {
	rs.mu.Lock()
	d := rs.deferralOf(name)
	d.armed = false
	if rs.busy.Load() > 0 || pausedBranches[S](ctx) {
		d.waited = rs.step.Load()
		d.held = rs.busy.Load() == 0 // only paused branches are left: the run pauses
		rs.mu.Unlock()
		return s, true, nil
	}
	arrivals := d.arrivals
	d.arrivals = nil
	rs.mu.Unlock()
	in, err := r.mergeArrivals(ctx, name, s, arrivals)
	return in, false, err
}

// mergeArrivals merges the states that reached a deferred node, in the
// order of its predecessors, over the state of the fork they started from.
func (r *Runnable[S]) mergeArrivals(ctx context.Context, name string, s S, arrivals map[string]any) (S, error) {
	if len(arrivals) == 0 { // entered another way: a resumed run
		return s, nil
	}
	v := r.verbs.node(name)
	var names []string
	for _, p := range v.preds {
		if _, ok := arrivals[p]; ok {
			names = append(names, p)
		}
	}
	if len(names) == 1 {
		return arrivals[names[0]].(S), nil
	}
	var zero S
	inv := invocationOf[S](ctx)
	if v.fork == "" || inv == nil {
		return zero, fmt.Errorf("deferred node %q: branches %v reached it but do not start from one fork, so there is no state to merge them over", name, names)
	}
	base := inv.base(v.fork)
	ins, outs := make([]S, len(names)), make([]S, len(names))
	for i, p := range names {
		ins[i], outs[i] = base, arrivals[p].(S)
	}
	merged, err := r.mergeBranches(ctx, base, ins, outs, names)
	if err != nil {
		return zero, fmt.Errorf("deferred node %q: %w", name, err)
	}
	emitValues(ctx, merged)
	return merged, nil
}

// deferLoop is a deferred node's hidden edge to itself: a node that waited
// in this step takes the next one too, unless a branch arriving has
// already started it.
func (r *Runnable[S]) deferLoop(name string) func(context.Context, S) (map[string]bool, error) {
	return func(ctx context.Context, _ S) (map[string]bool, error) {
		rs := runOf(ctx)
		rs.mu.Lock()
		defer rs.mu.Unlock()
		d := rs.deferralOf(name)
		if d.waited == rs.step.Load() && !d.armed && !d.held {
			d.armed = true
			return map[string]bool{name: true}, nil
		}
		return map[string]bool{}, nil
	}
}

// deferPlan finds a deferred node's predecessors, in declaration order, and
// the fork their branches start from when there is one.
func (r *Runnable[S]) deferPlan(name string, v *nodeVerbs) error {
	if r.plan.sends[name] != "" {
		return fmt.Errorf("node %q: WithDefer on a node a BySend router runs is not supported", name)
	}
	for _, e := range r.g.edges {
		if e.to == name && !slices.Contains(v.preds, e.from) {
			v.preds = append(v.preds, e.from)
		}
	}
	for _, b := range r.g.branches {
		for _, k := range sortedKeys(b.targets) {
			if b.targets[k] == name && !slices.Contains(v.preds, b.from) {
				v.preds = append(v.preds, b.from)
			}
		}
	}
	if len(v.preds) > 1 && r.plan.parallel() {
		if fork, err := nearestFork(successors(r.g), r.plan.forks, v.preds); err == nil {
			v.fork = fork
		}
	}
	return nil
}

// heldArrivals lists, for a checkpoint, the states that reached deferred
// nodes and wait there, by node and then predecessor.
func heldArrivals[S any](rs *runState) []arrival[S] {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	var held []arrival[S]
	for _, node := range sortedKeys(rs.deferred) {
		d := rs.deferred[node]
		for _, from := range sortedKeys(d.arrivals) {
			held = append(held, arrival[S]{join: node, from: from, s: d.arrivals[from].(S)})
		}
	}
	return held
}

// restoreArrival gives a deferred node back a state a checkpoint held for
// it; the resumed run enters the node, which waits for the rest.
func (rs *runState) restoreArrival(node, from string, s any) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	d := rs.deferralOf(node)
	if d.arrivals == nil {
		d.arrivals = map[string]any{}
	}
	d.arrivals[from] = s
}
