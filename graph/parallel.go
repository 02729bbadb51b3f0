package graph

import (
	"context"
	"fmt"
	"reflect"
	"sync"
)

type invKey struct{}

// invocation is one run's bookkeeping of parallel work: the merge bases the
// forks left, the branches that reached each join, the Sends waiting for
// their node.
type invocation[S any] struct {
	mu      sync.Mutex
	bases   map[string]S
	arrived map[string]map[string]S // join → predecessor → its branch's state
	queued  map[string][]S          // node → states Sent to it
}

func newInvocation[S any]() *invocation[S] {
	return &invocation[S]{bases: map[string]S{}}
}

func invocationOf[S any](ctx context.Context) *invocation[S] {
	inv, _ := ctx.Value(invKey{}).(*invocation[S])
	return inv
}

func (inv *invocation[S]) setBase(fork string, s S) {
	inv.mu.Lock()
	inv.bases[fork] = s
	inv.mu.Unlock()
}

func (inv *invocation[S]) base(fork string) S {
	inv.mu.Lock()
	defer inv.mu.Unlock()
	return inv.bases[fork]
}

func (inv *invocation[S]) queue(node string, s S) {
	inv.mu.Lock()
	if inv.queued == nil {
		inv.queued = map[string][]S{}
	}
	inv.queued[node] = append(inv.queued[node], s)
	inv.mu.Unlock()
}

func (inv *invocation[S]) take(node string) []S {
	inv.mu.Lock()
	defer inv.mu.Unlock()
	q := inv.queued[node]
	delete(inv.queued, node)
	return q
}

// arrive records a branch at a join and says whether it was the last.
func (inv *invocation[S]) arrive(join, from string, s S, need int) bool {
	inv.mu.Lock()
	defer inv.mu.Unlock()
	if inv.arrived == nil {
		inv.arrived = map[string]map[string]S{}
	}
	if inv.arrived[join] == nil {
		inv.arrived[join] = make(map[string]S, need)
	}
	inv.arrived[join][from] = s
	return len(inv.arrived[join]) == need
}

// join merges the branches that reached a join, in edge order, and clears
// them so a loop can join again. A join entered by a loop's edge instead
// has nothing to merge.
func (r *Runnable[S]) join(ctx context.Context, name string, inv *invocation[S]) (S, bool, error) {
	preds := r.plan.joins[name]
	inv.mu.Lock()
	arrived := inv.arrived[name]
	complete := len(arrived) == len(preds)
	if complete {
		delete(inv.arrived, name)
	}
	inv.mu.Unlock()
	var zero S
	if !complete {
		return zero, false, nil
	}
	outs := make([]S, 0, len(preds))
	for _, p := range preds {
		outs = append(outs, arrived[p])
	}
	base := inv.base(r.plan.forkOf[name])
	ins := make([]S, len(outs))
	for i := range ins {
		ins[i] = base
	}
	merged, err := r.mergeBranches(ctx, base, ins, outs, preds)
	if err != nil {
		return zero, false, fmt.Errorf("join %q: %w", name, err)
	}
	emitValues(ctx, merged)
	return merged, true, nil
}

// fanOut runs a node once per Sent state, in parallel, and merges the runs
// in Send order over the state the router saw.
func (r *Runnable[S]) fanOut(ctx context.Context, name string, call NodeFunc[S], policy bool, base S, ins []S) (S, error) {
	if len(ins) == 1 && same(ins[0], base) { // one Send of the state itself is a plain step
		return observe(ctx, name, call, base, true, policy)
	}
	outs := make([]S, len(ins))
	errs := make([]error, len(ins))
	run := func(i int) {
		outs[i], errs[i] = observe(ctx, name, call, copyState(ins[i]), false, policy) // a router may Send one state twice
	}
	var wg sync.WaitGroup
	for i := range ins[1:] {
		wg.Go(func() { run(i + 1) })
	}
	run(0) // this goroutine runs one send itself, so a single send starts none
	wg.Wait()
	var zero S
	for i, err := range errs {
		if err != nil {
			return zero, fmt.Errorf("send %d of %d to %q: %w", i+1, len(ins), name, err)
		}
	}
	names := make([]string, len(ins))
	for i := range names {
		names[i] = fmt.Sprintf("%s#%d", name, i+1)
	}
	merged, err := r.mergeBranches(ctx, base, ins, outs, names)
	if err != nil {
		return zero, fmt.Errorf("merge of the sends to %q: %w", name, err)
	}
	emitValues(ctx, merged)
	return merged, nil
}

// same says whether a and b are one pointer state: what a node does to
// one, it does to the other.
func same[S any](a, b S) bool {
	va, vb := reflect.ValueOf(&a).Elem(), reflect.ValueOf(&b).Elem()
	return va.Kind() == reflect.Pointer && !va.IsNil() && va.Pointer() == vb.Pointer()
}

// mergeBranches combines branch results: with WithMerge's function, or
// with the state's field reducers over what each branch changed. The
// function gets a copy of base: the base stays the fork's for every join
// that starts from it, and a merge that adds to its base and returns it is
// the natural one to write.
func (r *Runnable[S]) mergeBranches(ctx context.Context, base S, ins, outs []S, names []string) (S, error) {
	if r.merge != nil {
		return r.merge(ctx, copyState(base), outs)
	}
	return r.reduce(base, ins, outs, names)
}
