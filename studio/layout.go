package studio

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Sizes of the drawing, in SVG units.
const (
	nodeHeight   = 34.0
	terminalW    = 64.0
	charWidth    = 7.4 // of the 13px sans-serif node text
	nodePad      = 26.0
	layerGap     = 58.0
	siblingGap   = 36.0
	clusterPad   = 18.0
	clusterTitle = 22.0
	backEdgeBow  = 46.0
)

// level is one graph of the drawing (the top, or a cluster's inside): where
// its nodes' column lies and its lanes, the columns left and right of it
// that edges going back up (left) or over several layers (right) run in.
type level struct {
	left, right  float64 // the nodes' extent, relative until place
	lanes        map[dedge]float64
	layer        map[*dnode]int
	backs, longs int
}

// laneGap is the distance between two lanes.
const laneGap = 16.0

// layout places every node: each cluster's inside first (its size is what
// its nodes take), then each level in layers, a node below every node it
// has a forward edge from.
func (d *diagram) layout() (width, height float64) {
	w, h := d.layoutLevel(nil)
	d.place(nil, 0, 0)
	return w, h
}

func (d *diagram) members(parent *dnode) []*dnode {
	var out []*dnode
	for _, n := range d.nodes {
		if n.Parent == parent {
			out = append(out, n)
		}
	}
	return out
}

func (d *diagram) levelEdges(parent *dnode) []dedge {
	var out []dedge
	for _, e := range d.edges {
		if e.From.Parent == parent && e.To.Parent == parent {
			out = append(out, e)
		}
	}
	return out
}

// layoutLevel lays out the nodes whose Parent is parent, relative to the
// level's top left, and returns its size.
func (d *diagram) layoutLevel(parent *dnode) (float64, float64) {
	nodes, edges := d.members(parent), d.levelEdges(parent)
	lv := &level{lanes: map[dedge]float64{}, layer: map[*dnode]int{}}
	if d.levels == nil {
		d.levels = map[*dnode]*level{}
	}
	d.levels[parent] = lv
	for _, n := range nodes {
		switch {
		case n.Cluster:
			w, h := d.layoutLevel(n)
			n.w, n.h = max(w+2*clusterPad, charWidth*float64(len(n.Label))+2*nodePad), h+2*clusterPad+clusterTitle
		case n.terminal():
			n.w, n.h = terminalW, nodeHeight-6
		default:
			n.w, n.h = charWidth*float64(len(n.Label))+2*nodePad, nodeHeight
		}
	}
	layers := rank(nodes, edges)
	for i, layer := range layers {
		for _, n := range layer {
			lv.layer[n] = i
		}
	}
	for _, e := range edges {
		switch span := lv.layer[e.To] - lv.layer[e.From]; {
		case span <= 0:
			lv.backs++
			lv.lanes[e] = -float64(lv.backs)
		case span > 1:
			lv.longs++
			lv.lanes[e] = float64(lv.longs)
		}
	}
	var width float64
	heights := make([]float64, len(layers))
	for i, layer := range layers {
		var w float64
		for _, n := range layer {
			w += n.w
			heights[i] = max(heights[i], n.h)
		}
		width = max(width, w+siblingGap*float64(len(layer)-1))
	}
	offset := laneGap * float64(lv.backs)
	lv.left, lv.right = offset, offset+width
	y := 0.0
	for i, layer := range layers {
		var w float64
		for _, n := range layer {
			w += n.w
		}
		x := offset + (width-w-siblingGap*float64(len(layer)-1))/2
		for _, n := range layer {
			n.x, n.y = x, y+(heights[i]-n.h)/2
			x += n.w + siblingGap
		}
		y += heights[i] + layerGap
	}
	return width + laneGap*float64(lv.backs+lv.longs) + longLabel*boolF(lv.longs > 0), y - layerGap
}

// longLabel is the room right of a level for the labels of its long edges.
const longLabel = 120.0

func boolF(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// place turns the positions of parent's level into absolute ones.
func (d *diagram) place(parent *dnode, ox, oy float64) {
	lv := d.levels[parent]
	lv.left, lv.right = lv.left+ox, lv.right+ox
	for _, n := range d.members(parent) {
		n.x, n.y = n.x+ox, n.y+oy
		if n.Cluster {
			d.place(n, n.x+clusterPad, n.y+clusterPad+clusterTitle)
		}
	}
}

// rank puts nodes in layers: a depth-first walk from START (then from any
// node not reached) finds the edges that close loops; without them the
// graph is acyclic, and a node's layer is its longest way from a root. END
// goes last. In a layer, nodes keep the order the walk met them, then move
// towards the nodes above they come from.
func rank(nodes []*dnode, edges []dedge) [][]*dnode {
	out := map[*dnode][]*dnode{}
	for _, e := range edges {
		out[e.From] = append(out[e.From], e.To)
	}
	const (
		unseen = iota
		onStack
		done
	)
	mark := map[*dnode]int{}
	back := map[[2]*dnode]bool{}
	var order []*dnode // reverse post-order: a topological order of the forward edges
	var walk func(n *dnode)
	walk = func(n *dnode) {
		mark[n] = onStack
		for _, to := range out[n] {
			switch mark[to] {
			case onStack:
				back[[2]*dnode{n, to}] = true
			case unseen:
				walk(to)
			}
		}
		mark[n] = done
		order = append(order, n)
	}
	roots := slices.Clone(nodes)
	slices.SortStableFunc(roots, func(a, b *dnode) int { return boolRank(a.Label != "START") - boolRank(b.Label != "START") })
	for _, n := range roots {
		if mark[n] == unseen {
			walk(n)
		}
	}
	slices.Reverse(order)
	layer := map[*dnode]int{}
	last := 0
	for _, n := range order {
		for _, to := range out[n] {
			if !back[[2]*dnode{n, to}] {
				layer[to] = max(layer[to], layer[n]+1)
				last = max(last, layer[to])
			}
		}
	}
	for _, n := range nodes {
		if n.Label == "END" && layer[n] < last {
			layer[n] = last
		}
	}
	layers := make([][]*dnode, last+1)
	for _, n := range order {
		layers[layer[n]] = append(layers[layer[n]], n)
	}
	// One pass of barycentres: each node under the mean position of its
	// forward predecessors, which keeps most edges from crossing.
	pos := map[*dnode]float64{}
	for i, layer := range layers {
		if i > 0 {
			bary := map[*dnode]float64{}
			for j, n := range layer {
				var sum, count float64
				for _, e := range edges {
					if e.To == n && !back[[2]*dnode{e.From, n}] {
						sum, count = sum+pos[e.From], count+1
					}
				}
				bary[n] = float64(j)
				if count > 0 {
					bary[n] = sum / count
				}
			}
			slices.SortStableFunc(layer, func(a, b *dnode) int { return cmpFloat(bary[a], bary[b]) })
		}
		for j, n := range layer {
			pos[n] = float64(j) - float64(len(layer)-1)/2
		}
	}
	return layers
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// svg draws the laid-out diagram. Every node's group carries its path in
// data-node, which the page's highlighting selects; the colours are
// presentation attributes, so the file reads well on its own and the
// page's stylesheet overrides them.
func (d *diagram) svg() string {
	w, h := d.layout()
	d.labelled = map[*dnode]int{}
	var b strings.Builder
	const margin = 12.0
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="graph" viewBox="%.0f %.0f %.0f %.0f" width="%.0f" height="%.0f" font-family="sans-serif" font-size="13">`,
		-margin, -margin, w+2*margin, h+2*margin, w+2*margin, h+2*margin)
	b.WriteString(`<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">` +
		`<path d="M0,0 L10,5 L0,10 z" fill="#555"/></marker></defs>`)
	for _, n := range d.nodes { // clusters under everything
		if n.Cluster {
			fmt.Fprintf(&b, `<g class="cluster" data-node="%s"><rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" rx="8" fill="#f4f6fb" stroke="#9aa5bd"/>`+
				`<text x="%.1f" y="%.1f" font-weight="bold" fill="#334">%s</text></g>`,
				esc(n.Path), n.x, n.y, n.w, n.h, n.x+10, n.y+18, esc(n.Label))
		}
	}
	var labels strings.Builder // edge labels above every line
	for _, e := range d.edges {
		d.writeEdge(&b, &labels, e)
	}
	b.WriteString(labels.String())
	for _, n := range d.nodes {
		if n.Cluster {
			continue
		}
		rx, fill := 6.0, "#ffffff"
		if n.terminal() {
			rx, fill = n.h/2, "#e8e8e8"
		}
		fmt.Fprintf(&b, `<g class="node" data-node="%s"><rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" rx="%.1f" fill="%s" stroke="#556"/>`+
			`<text x="%.1f" y="%.1f" text-anchor="middle" dominant-baseline="central" fill="#111">%s</text></g>`,
			esc(n.Path), n.x, n.y, n.w, n.h, rx, fill, n.x+n.w/2, n.y+n.h/2, esc(n.Label))
	}
	b.WriteString("</svg>")
	return b.String()
}

// writeEdge draws an edge down from its node's bottom to the next's top,
// or, for one that goes back up (a loop), round the right of both.
func (d *diagram) writeEdge(b, labels *strings.Builder, e dedge) {
	f, t := e.From, e.To
	lv := d.levels[f.Parent]
	class, dash := "edge", ""
	if e.Dashed {
		class, dash = "edge dashed", ` stroke-dasharray="5 4"`
	}
	lane, laned := lv.lanes[e]
	if laned {
		// Round the nodes between: out of the source's side, along a lane,
		// into the target's side; the label by the source.
		sx, sy, tx, ty := f.x+f.w, f.y+f.h/2, t.x+t.w, t.y+t.h/2
		x := lv.right + laneGap*lane
		if lane < 0 {
			sx, tx, x = f.x, t.x, lv.left+laneGap*lane
		}
		fmt.Fprintf(b, `<g class="%s" data-from="%s" data-to="%s"><path d="M%.1f,%.1f L%.1f,%.1f L%.1f,%.1f L%.1f,%.1f" fill="none" stroke="#555"%s marker-end="url(#arrow)"/></g>`,
			class, esc(f.Path), esc(t.Path), sx, sy, x, sy, x, ty, tx, ty, dash)
		if e.Label != "" {
			sy -= 13 * float64(d.labelled[f]) // several from one node: stacked
			d.labelled[f]++
			anchor, lx := "start", sx+4
			if lane < 0 {
				anchor, lx = "end", sx-4
			}
			fmt.Fprintf(labels, `<g class="edge-label"><text x="%.1f" y="%.1f" font-size="11" text-anchor="%s" fill="#5a4a00">%s</text></g>`,
				lx, sy-4, anchor, esc(e.Label))
		}
		return
	}
	sx, sy, tx, ty := f.x+f.w/2, f.y+f.h, t.x+t.w/2, t.y
	bend := math.Max((ty-sy)/2, 20)
	p := [4][2]float64{{sx, sy}, {sx, sy + bend}, {tx, ty - bend}, {tx, ty}}
	fmt.Fprintf(b, `<g class="%s" data-from="%s" data-to="%s"><path d="M%.1f,%.1f C%.1f,%.1f %.1f,%.1f %.1f,%.1f" fill="none" stroke="#555"%s marker-end="url(#arrow)"/></g>`,
		class, esc(f.Path), esc(t.Path), p[0][0], p[0][1], p[1][0], p[1][1], p[2][0], p[2][1], p[3][0], p[3][1], dash)
	if e.Label == "" {
		return
	}
	// The label sits at the curve's middle, or nearer the target when its
	// node fans out, so that the labels of a fan spread with it.
	at := 0.5
	if d.fanOut(e.From) > 1 {
		at = 0.78
	}
	u := 1 - at
	mx := u*u*u*p[0][0] + 3*u*u*at*p[1][0] + 3*u*at*at*p[2][0] + at*at*at*p[3][0]
	my := u*u*u*p[0][1] + 3*u*u*at*p[1][1] + 3*u*at*at*p[2][1] + at*at*at*p[3][1]
	lw := 6.0*float64(len(e.Label)) + 8
	fmt.Fprintf(labels, `<g class="edge-label"><rect x="%.1f" y="%.1f" width="%.1f" height="16" rx="3" fill="#fffbe6" opacity="0.9"/>`+
		`<text x="%.1f" y="%.1f" font-size="11" text-anchor="middle" dominant-baseline="central" fill="#5a4a00">%s</text></g>`,
		mx-lw/2, my-8, lw, mx, my, esc(e.Label))
}

// fanOut counts the edges out of n drawn as curves (not along a lane).
func (d *diagram) fanOut(n *dnode) int {
	count := 0
	for _, e := range d.edges {
		if _, laned := d.levels[n.Parent].lanes[e]; e.From == n && !laned {
			count++
		}
	}
	return count
}

var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;")

func esc(s string) string { return xmlEscaper.Replace(s) }
