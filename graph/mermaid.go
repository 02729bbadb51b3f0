package graph

import (
	"fmt"
	"strings"
)

// Mermaid draws the graph as a Mermaid flowchart: solid arrows for fixed
// edges, dashed arrows for conditional ones, labelled by their router (the
// key, or the decision table's ID, output value and rules).
func (g *StateGraph[S]) Mermaid() string {
	var b strings.Builder
	b.WriteString("flowchart TD\n")
	id := func(n string) string {
		switch n {
		case START:
			return "START"
		case END:
			return "END" // a bare "end" would close a Mermaid block
		}
		return n
	}
	for _, e := range g.edges {
		fmt.Fprintf(&b, "  %s --> %s\n", id(e.from), id(e.to))
	}
	for _, br := range g.branches {
		for _, k := range sortedKeys(br.targets) {
			fmt.Fprintf(&b, "  %s -. %q .-> %s\n", id(br.from), br.router.label(k), id(br.targets[k]))
		}
	}
	return b.String()
}

// Mermaid draws the compiled graph; see StateGraph.Mermaid.
func (r *Runnable[S]) Mermaid() string { return r.g.Mermaid() }
