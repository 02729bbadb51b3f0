package graph

import (
	"fmt"
	"strings"
)

// Mermaid draws the graph as a Mermaid flowchart: solid arrows for fixed
// edges, dashed arrows for conditional ones, labelled by their router (the
// key, or the decision table's ID, output value and rules).
func (g *StateGraph[S]) Mermaid() string { return g.mermaid(nil) }

// Mermaid draws the compiled graph; see StateGraph.Mermaid.
func (r *Runnable[S]) Mermaid() string { return r.g.mermaid(nil) }

// MermaidWith draws the graph with the subgraphs of the named nodes drawn
// inside them (a node made by Subgraph runs a graph the parent cannot see
// into, so the caller names it).
func (r *Runnable[S]) MermaidWith(subgraphs map[string]*Runnable[S]) string {
	return r.g.mermaid(subgraphs)
}

func (g *StateGraph[S]) mermaid(subs map[string]*Runnable[S]) string {
	var b strings.Builder
	b.WriteString("flowchart TD\n")
	g.writeMermaid(&b, "", "  ", subs)
	return b.String()
}

// writeMermaid writes g's nodes and edges; prefix keeps a subgraph's node
// names apart from the parent's.
func (g *StateGraph[S]) writeMermaid(b *strings.Builder, prefix, indent string, subs map[string]*Runnable[S]) {
	id := func(n string) string {
		switch n {
		case START:
			return prefix + "START"
		case END:
			return prefix + "END" // a bare "end" would close a Mermaid block
		}
		return prefix + n
	}
	for _, name := range g.order {
		if sub := subs[name]; sub != nil {
			fmt.Fprintf(b, "%ssubgraph %s [%s]\n", indent, id(name), name)
			sub.g.writeMermaid(b, id(name)+"_", indent+"  ", nil)
			fmt.Fprintf(b, "%send\n", indent)
		}
	}
	for _, e := range g.edges {
		fmt.Fprintf(b, "%s%s --> %s\n", indent, id(e.from), id(e.to))
	}
	for _, br := range g.branches {
		for _, k := range sortedKeys(br.targets) {
			fmt.Fprintf(b, "%s%s -. %q .-> %s\n", indent, id(br.from), br.router.label(k), id(br.targets[k]))
		}
	}
	g.writeFallbacks(b, indent, id)
}
