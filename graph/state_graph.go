package graph

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/cloudwego/eino/compose"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/tables"
)

// START and END are the graph's entry and exit, as in eino and LangGraph.
const (
	START = compose.START
	END   = compose.END
)

// NodeFunc is a node: it reads and writes the turn's state.
type NodeFunc func(ctx context.Context, s *contracts.ChatState) (*contracts.ChatState, error)

// Router picks the key of the next node from the state.
type Router func(ctx context.Context, s *contracts.ChatState) (string, error)

// TableInputs reads a decision table's inputs off the state.
type TableInputs func(s *contracts.ChatState) map[string]any

// StateGraph is a graph under construction. Its methods record mistakes
// (an unknown node, a duplicate name) and Compile reports them all at once,
// so a graph reads as a list of statements, like the diagram it draws.
type StateGraph struct {
	name     string
	order    []string
	nodes    map[string]node
	edges    []edge
	branches []branch
	errs     []error
}

type node struct {
	fn  NodeFunc
	sub *StateGraph
}

type edge struct{ from, to string }

// branch is a conditional edge: route returns a key of targets.
type branch struct {
	from    string
	route   Router
	targets map[string]string // key returned by route → node
	labels  map[string]string // key → edge label in diagrams
}

// New starts an empty graph; name appears in logs, errors and diagrams.
func New(name string) *StateGraph {
	return &StateGraph{name: name, nodes: map[string]node{}}
}

// Name is the graph's name.
func (g *StateGraph) Name() string { return g.name }

func (g *StateGraph) fail(format string, args ...any) {
	g.errs = append(g.errs, fmt.Errorf(format, args...))
}

// AddNode adds a node running fn.
func (g *StateGraph) AddNode(name string, fn NodeFunc) *StateGraph {
	if fn == nil {
		g.fail("node %q: nil function", name)
		return g
	}
	g.add(name, node{fn: fn})
	return g
}

// AddSubgraph adds a whole graph as one node; it runs on the same state.
func (g *StateGraph) AddSubgraph(name string, sub *StateGraph) *StateGraph {
	if sub == nil {
		g.fail("subgraph %q: nil graph", name)
		return g
	}
	g.add(name, node{sub: sub})
	return g
}

func (g *StateGraph) add(name string, n node) {
	switch {
	case name == "" || name == START || name == END:
		g.fail("node name %q is reserved or empty", name)
	case g.nodes[name].fn != nil || g.nodes[name].sub != nil:
		g.fail("node %q added twice", name)
	default:
		g.nodes[name] = n
		g.order = append(g.order, name)
	}
}

// AddEdge always goes from one node to the next.
func (g *StateGraph) AddEdge(from, to string) *StateGraph {
	g.edges = append(g.edges, edge{from, to})
	return g
}

// AddConditionalEdges routes from a node to targets[route(state)]. An edge
// is labelled with its key in diagrams.
func (g *StateGraph) AddConditionalEdges(from string, route Router, targets map[string]string) *StateGraph {
	if route == nil {
		g.fail("conditional edges from %q: nil router", from)
		return g
	}
	if len(targets) == 0 {
		g.fail("conditional edges from %q: no targets", from)
		return g
	}
	labels := map[string]string{}
	for k := range targets {
		labels[k] = k
	}
	g.branches = append(g.branches, branch{from: from, route: route, targets: targets, labels: labels})
	return g
}

// AddTableEdges routes from a node by a decision table: the table is
// evaluated on inputs(state) and its output column decides, through
// targets, where the turn goes. Edges are labelled with the table's ID, the
// output value and the rules that produce it.
func (g *StateGraph) AddTableEdges(from string, t *tables.Table, inputs TableInputs, output string, targets map[string]string) *StateGraph {
	if t == nil || inputs == nil {
		g.fail("table edges from %q: nil table or inputs", from)
		return g
	}
	col := -1
	for i, c := range t.Outputs {
		if c.Name == output {
			col = i
		}
	}
	if col < 0 {
		g.fail("table edges from %q: %s has no output %q", from, t.ID, output)
		return g
	}
	rules := map[string][]int{} // output value → the rules (numbered from 1) that produce it
	for i, r := range t.Rules {
		rules[r.Outputs[col]] = append(rules[r.Outputs[col]], i+1)
	}
	for v := range rules {
		if _, ok := targets[v]; !ok {
			g.fail("table edges from %q: %s can output %s=%q but no target is given for it", from, t.ID, output, v)
		}
	}
	route := func(_ context.Context, s *contracts.ChatState) (string, error) {
		res, err := t.Evaluate(inputs(s))
		if err != nil {
			return "", err
		}
		return res.Get(output), nil
	}
	labels := map[string]string{}
	for k := range targets {
		labels[k] = fmt.Sprintf("%s %s %s", t.ID, k, ruleList(rules[k]))
	}
	g.branches = append(g.branches, branch{from: from, route: route, targets: targets, labels: labels})
	return g
}

func ruleList(rules []int) string {
	sort.Ints(rules)
	s := "rule"
	if len(rules) > 1 {
		s += "s"
	}
	for i, r := range rules {
		if i > 0 {
			s += ","
		}
		s += fmt.Sprintf(" %d", r)
	}
	return "(" + s + ")"
}

// validate checks what only the whole graph can show.
func (g *StateGraph) validate() error {
	errs := append([]error(nil), g.errs...)
	known := func(n string) bool { _, ok := g.nodes[n]; return ok }
	hasStart := false
	for _, e := range g.edges {
		if e.from == START {
			hasStart = true
		}
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
		for k, to := range b.targets {
			if to != END && !known(to) {
				errs = append(errs, fmt.Errorf("conditional edge %s -[%s]-> %s: unknown node %q", b.from, k, to, to))
			}
		}
	}
	if !hasStart {
		errs = append(errs, errors.New("no edge from START"))
	}
	for _, name := range g.order {
		if sub := g.nodes[name].sub; sub != nil {
			if err := sub.validate(); err != nil {
				errs = append(errs, fmt.Errorf("subgraph %q: %w", name, err))
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("graph %s: %w", g.name, err)
	}
	return nil
}
