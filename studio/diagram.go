package studio

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"
)

// diagram is a graph read back from the Mermaid flowchart the graph package
// writes: the nodes in the order they first appear, the edges between them,
// and the subgraphs drawn inside their nodes (clusters).
type diagram struct {
	nodes []*dnode
	byID  map[string]*dnode
	edges []dedge
	// levels are the laid-out graphs, by their cluster (nil: the top)
	levels map[*dnode]*level
	// labelled counts the lane labels drawn by each node
	labelled map[*dnode]int
}

// dnode is one box of the drawing. Path is the node's path as a streamed
// run names it ("react_agent/agent_model"), which the page highlights.
type dnode struct {
	ID, Path, Label string
	Parent          *dnode // the cluster it is drawn in; nil at the top
	Cluster         bool   // a node whose subgraph is drawn inside it
	// the layout's results, relative to Parent's inside until place
	x, y, w, h float64
}

// dedge is an arrow: dashed for a conditional edge, with its router's label.
type dedge struct {
	From, To *dnode
	Label    string
	Dashed   bool
}

// parseMermaid reads the flowchart of graph.Runnable.Mermaid or
// MermaidWith: "subgraph ID [NAME]" … "end" blocks, "A --> B" and
// "A -. "label" .-> B" lines. Anything else is an error naming the line.
func parseMermaid(src string) (*diagram, error) {
	d := &diagram{byID: map[string]*dnode{}}
	var open []*dnode
	sc := bufio.NewScanner(strings.NewReader(src))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		var cluster *dnode
		if len(open) > 0 {
			cluster = open[len(open)-1]
		}
		switch {
		case line == "" || strings.HasPrefix(line, "flowchart") || strings.HasPrefix(line, "%%"):
		case line == "end":
			if len(open) == 0 {
				return nil, fmt.Errorf("mermaid line %d: end without subgraph", n)
			}
			open = open[:len(open)-1]
		case strings.HasPrefix(line, "subgraph "):
			id, _, _ := strings.Cut(strings.TrimPrefix(line, "subgraph "), " ")
			c := d.node(id, cluster)
			c.Cluster = true
			open = append(open, c)
		case strings.Contains(line, " --> "):
			from, to, _ := strings.Cut(line, " --> ")
			d.edges = append(d.edges, dedge{From: d.node(from, cluster), To: d.node(to, cluster)})
		case strings.Contains(line, " -. "):
			from, rest, _ := strings.Cut(line, " -. ")
			label, to, ok := strings.Cut(rest, " .-> ")
			if !ok {
				return nil, fmt.Errorf("mermaid line %d: %q: a dashed edge without .->", n, line)
			}
			text, err := strconv.Unquote(label)
			if err != nil {
				return nil, fmt.Errorf("mermaid line %d: label %s: %w", n, label, err)
			}
			d.edges = append(d.edges, dedge{From: d.node(from, cluster), To: d.node(to, cluster), Label: text, Dashed: true})
		default:
			return nil, fmt.Errorf("mermaid line %d: %q is not an edge, a subgraph or its end", n, line)
		}
	}
	if len(open) > 0 {
		return nil, fmt.Errorf("mermaid: subgraph %s has no end", open[len(open)-1].ID)
	}
	if len(d.nodes) == 0 {
		return nil, fmt.Errorf("mermaid: no nodes")
	}
	return d, sc.Err()
}

// node is the node of id, made in cluster on first sight. A node inside a
// cluster has the cluster's id and "_" before its name; its path is the
// cluster's path and "/" before it.
func (d *diagram) node(id string, cluster *dnode) *dnode {
	if n := d.byID[id]; n != nil {
		return n
	}
	n := &dnode{ID: id, Path: id, Label: id, Parent: cluster}
	if cluster != nil {
		name := strings.TrimPrefix(id, cluster.ID+"_")
		n.Path, n.Label = cluster.Path+"/"+name, name
	}
	d.byID[id] = n
	d.nodes = append(d.nodes, n)
	return n
}

// terminal says whether n is a START or END of its graph.
func (n *dnode) terminal() bool { return n.Label == "START" || n.Label == "END" }
