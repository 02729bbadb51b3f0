package graph

import (
	"fmt"
	"sort"
	"strings"
)

// Mermaid draws the graph as a Mermaid flowchart: solid arrows for fixed
// edges, dashed arrows labelled with the router key or the decision table's
// ID, output value and rules for conditional ones. Subgraphs are drawn
// inside a box.
func (g *StateGraph) Mermaid() string {
	var b strings.Builder
	b.WriteString("flowchart TD\n")
	g.writeMermaid(&b, "", "  ")
	return b.String()
}

// Mermaid draws the compiled graph; see StateGraph.Mermaid.
func (r *Runnable) Mermaid() string { return r.g.Mermaid() }

// writeMermaid writes g's nodes and edges; prefix keeps a subgraph's node
// names apart from the parent's.
func (g *StateGraph) writeMermaid(b *strings.Builder, prefix, indent string) {
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
		if sub := g.nodes[name].sub; sub != nil {
			fmt.Fprintf(b, "%ssubgraph %s [%s]\n", indent, id(name), name)
			sub.writeMermaid(b, id(name)+"_", indent+"  ")
			fmt.Fprintf(b, "%send\n", indent)
		}
	}
	for _, e := range g.edges {
		fmt.Fprintf(b, "%s%s --> %s\n", indent, id(e.from), id(e.to))
	}
	for _, br := range g.branches {
		keys := make([]string, 0, len(br.targets))
		for k := range br.targets {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(b, "%s%s -. %q .-> %s\n", indent, id(br.from), br.labels[k], id(br.targets[k]))
		}
	}
}
