package graph

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/cloudwego/eino/compose"
)

// START and END are the graph's entry and exit, as in eino and LangGraph.
const (
	START = compose.START
	END   = compose.END
)

// NodeFunc is a node: it reads the state and returns the state it leaves.
// A node may change s in place and return it, or return a new value.
type NodeFunc[S any] func(ctx context.Context, s S) (S, error)

// StateGraph is a graph over a state of type S under construction. Its
// methods record mistakes (an unknown node, a duplicate name) and Compile
// reports them all at once, so a graph reads as a list of statements, like
// the diagram it draws.
type StateGraph[S any] struct {
	name     string
	order    []string // nodes in the order they were added
	nodes    map[string]*nodeSpec[S]
	edges    []edge
	branches []*branch[S]
	errs     []error
}

type nodeSpec[S any] struct {
	fn   NodeFunc[S]
	opts nodeOptions
}

type edge struct{ from, to string }

// branch is a conditional edge: the router's keys name targets.
type branch[S any] struct {
	from    string
	router  Router[S]
	targets map[string]string // router key → node
}

// New starts an empty graph over state S; name appears in logs, errors and
// diagrams.
func New[S any](name string) *StateGraph[S] {
	return &StateGraph[S]{name: name, nodes: map[string]*nodeSpec[S]{}}
}

// Name is the graph's name.
func (g *StateGraph[S]) Name() string { return g.name }

func (g *StateGraph[S]) fail(format string, args ...any) *StateGraph[S] {
	g.errs = append(g.errs, fmt.Errorf(format, args...))
	return g
}

// AddNode adds a node running fn, with its own retry and timeout policy if
// opts give one. A subgraph is a node too: see Subgraph.
func (g *StateGraph[S]) AddNode(name string, fn NodeFunc[S], opts ...NodeOption) *StateGraph[S] {
	switch {
	case fn == nil:
		return g.fail("node %q: nil function", name)
	case name == "" || name == START || name == END:
		return g.fail("node name %q is reserved (%q and %q are the graph's entry and exit) or empty", name, START, END)
	case g.nodes[name] != nil:
		return g.fail("node %q added twice", name)
	}
	spec := &nodeSpec[S]{fn: fn}
	for _, o := range opts {
		o(&spec.opts)
	}
	if err := spec.opts.check(); err != nil {
		return g.fail("node %q: %w", name, err)
	}
	g.nodes[name] = spec
	g.order = append(g.order, name)
	g.addDestinations(name, spec.opts.dests)
	return g
}

// AddEdge always goes from one node to the next. Several edges out of one
// node run their targets in parallel; a node with several edges in waits
// for all of them and starts on their merged state (see WithMerge).
func (g *StateGraph[S]) AddEdge(from, to string) *StateGraph[S] {
	if slices.Contains(g.edges, edge{from, to}) {
		return g.fail("edge %s → %s added twice", from, to)
	}
	g.edges = append(g.edges, edge{from, to})
	return g
}

// AddConditionalEdges routes from a node by a router: each key the router
// can return names a target in targets (a node or END). The router also
// labels the edges in diagrams.
func (g *StateGraph[S]) AddConditionalEdges(from string, r Router[S], targets map[string]string) *StateGraph[S] {
	if r == nil {
		return g.fail("conditional edges from %q: nil router", from)
	}
	if len(targets) == 0 {
		return g.fail("conditional edges from %q: no targets", from)
	}
	if err := r.check(targets); err != nil {
		return g.fail("conditional edges from %q: %w", from, err)
	}
	g.branches = append(g.branches, &branch[S]{from: from, router: r, targets: targets})
	return g
}

// validate checks what only the whole graph can show.
func (g *StateGraph[S]) validate() error {
	errs := append([]error(nil), g.errs...)
	known := func(n string) bool { return g.nodes[n] != nil }
	hasStart := false
	for _, e := range g.edges {
		hasStart = hasStart || e.from == START
		if e.from != START && !known(e.from) {
			errs = append(errs, fmt.Errorf("edge %s → %s: unknown node %q", e.from, e.to, e.from))
		}
		if e.to != END && !known(e.to) {
			errs = append(errs, fmt.Errorf("edge %s → %s: unknown node %q", e.from, e.to, e.to))
		}
	}
	for _, b := range g.branches {
		if b.from == START {
			hasStart = true
		} else if !known(b.from) {
			errs = append(errs, fmt.Errorf("conditional edges from unknown node %q", b.from))
		}
		for _, k := range sortedKeys(b.targets) {
			if to := b.targets[k]; to != END && !known(to) {
				if gr, ok := b.router.(gotoRouter[S]); ok {
					errs = append(errs, gr.unknownTarget(b.from, to))
					continue
				}
				errs = append(errs, fmt.Errorf("conditional edge %s -[%s]-> %s: unknown node %q", b.from, k, to, to))
			}
		}
	}
	if !hasStart {
		errs = append(errs, errors.New("no edge from START"))
	}
	return errors.Join(errs...)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
