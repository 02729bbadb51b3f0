package graph

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/cloudwego/eino/compose"
)

// verbs is what Compile learned about the node verbs beyond edges: Goto
// destinations, fallbacks, deferred nodes and caches.
type verbs[S any] struct {
	maxSteps int
	nodes    map[string]*nodeVerbs
	gated    map[string]bool // nodes whose exits are decided at run time: fallback, defer
	cache    map[string]*CachePolicy[S]
	store    CacheStore
}

// nodeVerbs is one node's part of verbs.
type nodeVerbs struct {
	dests    map[string]bool
	fallback string
	deferred bool
	preds    []string // deferred: its predecessors, in declaration order
	fork     string   // deferred: the fork its predecessors' branches start from
}

var noVerbs = &nodeVerbs{}

func (v *verbs[S]) node(name string) *nodeVerbs {
	if n := v.nodes[name]; n != nil {
		return n
	}
	return noVerbs
}

// compileVerbs checks the node verbs against the graph and its plan.
func (r *Runnable[S]) compileVerbs(o compileOptions) error {
	v := &verbs[S]{maxSteps: o.maxSteps, nodes: map[string]*nodeVerbs{}, gated: map[string]bool{}}
	r.verbs = v
	d := r.defaults
	if len(d.dests) > 0 || d.fallback != "" || d.deferred {
		return errors.New("node defaults: WithDestinations, WithFallback and WithDefer belong to one node")
	}
	var errs []error
	for _, name := range r.g.order {
		opts := r.g.nodes[name].opts
		n := &nodeVerbs{fallback: opts.fallback, deferred: opts.deferred}
		if len(opts.dests) > 0 {
			n.dests = map[string]bool{}
			for _, to := range opts.dests {
				n.dests[to] = true
			}
		}
		if n.fallback != "" {
			errs = append(errs, r.checkFallback(name, n.fallback))
			v.gated[name] = true
		}
		if n.deferred {
			errs = append(errs, r.deferPlan(name, n))
			v.gated[name] = true
		}
		v.nodes[name] = n
		p, err := cachePolicyOf[S](name, opts.cache, d.cache)
		errs = append(errs, err)
		if p != nil {
			if v.cache == nil {
				v.cache = map[string]*CachePolicy[S]{}
			}
			v.cache[name] = p
		}
	}
	if len(v.cache) > 0 {
		v.store = o.cacheStore
		if v.store == nil {
			v.store = NewMemoryCache(DefaultCacheEntries)
		}
	}
	return errors.Join(errs...)
}

// condition is the eino branch function of an edge decided at run time.
type condition[S any] = func(context.Context, S) (map[string]bool, error)

// always is a fixed edge as a condition, for an edge that must be decided
// at run time.
func always[S any](to string) condition[S] {
	next := map[string]bool{to: true}
	return func(context.Context, S) (map[string]bool, error) { return maps.Clone(next), nil }
}

// needsGate says whether an edge from → to cannot be a plain eino edge.
func (r *Runnable[S]) needsGate(from, to string) bool {
	return r.verbs.gated[from] || r.verbs.node(to).deferred
}

// routeOf is the eino condition of a recorded branch.
func (r *Runnable[S]) routeOf(b *branch[S]) condition[S] {
	if _, ok := b.router.(gotoRouter[S]); ok {
		return r.gotoCondition(b.from)
	}
	return r.condition(b)
}

// gate wraps an exit of a node with the rules decided at run time: a node
// that failed over to its fallback, or a deferred node that waited, takes
// none of its exits; a branch reaching a deferred node is recorded there
// and starts it only if nothing else has this step.
func (r *Runnable[S]) gate(from string, cond condition[S]) condition[S] {
	if !r.verbs.gated[from] && !r.intoDeferred(from) {
		return cond
	}
	return func(ctx context.Context, s S) (map[string]bool, error) {
		rs := runOf(ctx)
		if rs.failure(from) != nil || rs.waiting(from) {
			return map[string]bool{}, nil
		}
		next, err := cond(ctx, s)
		if err != nil {
			return nil, err
		}
		var out map[string]bool
		for to := range next {
			if r.verbs.node(to).deferred && !rs.arrive(to, from, s) {
				if out == nil {
					out = maps.Clone(next) // a router's sets are shared
				}
				delete(out, to)
			}
		}
		if out != nil {
			return out, nil
		}
		return next, nil
	}
}

// intoDeferred says whether some edge leads from a node to a deferred one.
func (r *Runnable[S]) intoDeferred(from string) bool {
	for name, n := range r.verbs.nodes {
		if n.deferred && name != from && slices.Contains(n.preds, from) {
			return true
		}
	}
	return false
}

// addHiddenEdges adds the edges only the run decides: to a fallback, and a
// deferred node's loop onto itself while it waits.
func (r *Runnable[S]) addHiddenEdges(cg *compose.Graph[S, S]) error {
	for _, name := range r.g.order {
		n := r.verbs.node(name)
		if n.fallback != "" {
			if err := cg.AddBranch(name, compose.NewGraphMultiBranch(r.fallbackCondition(name, n.fallback), map[string]bool{n.fallback: true})); err != nil {
				return fmt.Errorf("node %q: fallback %q: %w", name, n.fallback, err)
			}
		}
		if n.deferred {
			if err := cg.AddBranch(name, compose.NewGraphMultiBranch(r.deferLoop(name), map[string]bool{name: true})); err != nil {
				return fmt.Errorf("deferred node %q: %w", name, err)
			}
		}
	}
	return nil
}
