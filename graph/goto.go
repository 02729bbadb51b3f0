package graph

import (
	"context"
	"fmt"
	"slices"
	"sync"
)

// WithDestinations declares the nodes (or END) a node may name with Goto,
// as LangGraph's Command annotations do: Compile checks they exist and the
// Mermaid diagram draws them as dashed edges labelled "goto". A node whose
// subgraph calls GotoParent declares them on the node that runs the
// subgraph.
func WithDestinations(nodes ...string) NodeOption {
	return func(o *nodeOptions) { o.dests = append(o.dests, nodes...) }
}

// Goto names the nodes that run after this one (LangGraph's Command goto).
// They run once the node returns without error, on the state it returns,
// together with the targets of its edges; several run in parallel, each on
// its own copy. A node may call Goto several times; the targets add up.
// Each must be one the node declares with WithDestinations: any other
// fails the run with an error naming the node and the target. A failed
// attempt's Gotos are forgotten when the node is retried. Outside a node
// it does nothing.
func Goto(ctx context.Context, nodes ...string) {
	sk := sinkOf(ctx)
	if sk == nil {
		return // not in a node: there is no step to go on from
	}
	nr := sk.nr
	for _, to := range nodes {
		if !nr.v.dests[to] {
			nr.misuse(fmt.Errorf("node %q: Goto %q: not among the destinations it declares (WithDestinations)", nr.name, to))
			return
		}
	}
	sk.add(nodes, nil)
}

// GotoParent is Goto in the graph that runs this one as a subgraph: the
// subgraph ends once the node returns, and the parent goes on from the
// subgraph's node to the named nodes, as if that node had called Goto (its
// edges run too). As in LangGraph, the subgraph's work still running in
// parallel with the node is dropped. The targets must be among the
// destinations of the node that runs the subgraph.
func GotoParent(ctx context.Context, nodes ...string) {
	sk := sinkOf(ctx)
	if sk == nil {
		return
	}
	nr := sk.nr
	if nr.outer == nil {
		nr.misuse(fmt.Errorf("node %q: GotoParent %v: its graph is not running as a subgraph", nr.name, nodes))
		return
	}
	parent := nr.outer.nr
	for _, to := range nodes {
		if !parent.v.dests[to] {
			nr.misuse(fmt.Errorf("node %q: GotoParent %q: not among the destinations of the parent's node %q (WithDestinations)", nr.name, to, parent.name))
			return
		}
	}
	sk.add(nil, nodes)
}

// sink collects a node's Goto (to) and GotoParent (up) targets. Each
// attempt of a retried node, and each cached call, has its own, passed to
// its parent only when it succeeds; the node's root sink holds what the
// node ends with.
type sink struct {
	nr     *nodeRun
	parent *sink

	mu     sync.Mutex
	to, up []string
}

type sinkKey struct{}

func sinkOf(ctx context.Context) *sink {
	sk, _ := ctx.Value(sinkKey{}).(*sink)
	return sk
}

func (sk *sink) add(to, up []string) {
	defer sk.nr.dirty.Store(true)
	sk.mu.Lock()
	for _, n := range to {
		if !slices.Contains(sk.to, n) {
			sk.to = append(sk.to, n)
		}
	}
	for _, n := range up {
		if !slices.Contains(sk.up, n) {
			sk.up = append(sk.up, n)
		}
	}
	sk.mu.Unlock()
}

func (sk *sink) targets() (to, up []string) {
	sk.mu.Lock()
	defer sk.mu.Unlock()
	return slices.Clone(sk.to), slices.Clone(sk.up)
}

// child is a sink for one call under sk.
func (sk *sink) child() *sink { return &sink{nr: sk.nr, parent: sk} }

// commit passes a successful call's targets on.
func (sk *sink) commit() {
	to, up := sk.targets()
	if len(to)+len(up) > 0 {
		sk.parent.add(to, up)
	}
}

// perAttempt gives each attempt of a retried node a sink of its own, so a
// failed attempt's Gotos do not reach the edges. A node without retries
// makes one attempt and needs none.
func perAttempt[S any](fn NodeFunc[S], o nodeOptions) NodeFunc[S] {
	if o.retry == nil {
		return fn
	}
	return func(ctx context.Context, s S) (S, error) {
		parent := sinkOf(ctx)
		if parent == nil {
			return fn(ctx, s)
		}
		sk := parent.child()
		out, err := fn(context.WithValue(ctx, sinkKey{}, sk), s)
		if err == nil {
			sk.commit()
		}
		return out, err
	}
}

// leaving ends a subgraph's run after a GotoParent: it passes through eino
// as an error and settle turns it back into the subgraph's output.
type leaving[S any] struct{ s S }

func (leaving[S]) Error() string { return "left for the parent graph (GotoParent)" }

// gotoRouter is the hidden conditional edge of a node with destinations:
// it goes where the node's Gotos said. It is a Router so the plan sees its
// targets (a fork when they may run together) and the diagram draws them.
type gotoRouter[S any] struct {
	g    *StateGraph[S]
	from string
	n    int // destinations
}

func (gotoRouter[S]) route(context.Context, S) (route[S], error) { return route[S]{}, nil } // see gotoCondition
func (gotoRouter[S]) check(map[string]string) error              { return nil }
func (gotoRouter[S]) label(string) string                        { return "goto" }

// fansOut: Goto may name several destinations, or one beside the node's
// edges; either runs branches in parallel.
func (gr gotoRouter[S]) fansOut() bool { return gr.n > 1 || gr.g.exits(gr.from) > 1 }

func (gotoRouter[S]) unknownTarget(from, to string) error {
	return fmt.Errorf("node %q: WithDestinations names unknown node %q", from, to)
}

// addDestinations records a node's destinations as its hidden edge.
func (g *StateGraph[S]) addDestinations(name string, dests []string) {
	if len(dests) == 0 {
		return
	}
	targets := map[string]string{}
	for _, to := range dests {
		targets[to] = to
	}
	g.branches = append(g.branches, &branch[S]{from: name, router: gotoRouter[S]{g: g, from: name, n: len(targets)}, targets: targets})
}

// exits counts a node's ways out: its edges and conditional edges.
func (g *StateGraph[S]) exits(from string) int {
	n := 0
	for _, e := range g.edges {
		if e.from == from {
			n++
		}
	}
	for _, b := range g.branches {
		if b.from == from {
			n++
		}
	}
	return n
}

// gotoCondition is the eino condition of a node's hidden Goto edge.
func (r *Runnable[S]) gotoCondition(from string) func(context.Context, S) (map[string]bool, error) {
	alone := r.g.exits(from) == 1 // only the Goto edge leaves the node
	fixed := slices.ContainsFunc(r.g.edges, func(e edge) bool { return e.from == from })
	return func(ctx context.Context, _ S) (map[string]bool, error) {
		to := runOf(ctx).gotosOf(from)
		switch {
		case len(to) == 0 && alone:
			return nil, fmt.Errorf("node %q has no edge out and named no next node: call graph.Goto (graph.END to end the run)", from)
		case fixed && slices.Contains(to, END):
			// eino ends the run as soon as a step reaches END, so the
			// targets of the node's edges would silently not run.
			return nil, fmt.Errorf("node %q: Goto END beside its edges would end the run before their targets run", from)
		}
		next := make(map[string]bool, len(to))
		for _, n := range to {
			next[n] = true
		}
		return next, nil
	}
}
