package graph

import (
	"fmt"
	"slices"
)

// plan is what Compile learns about parallel work from the edges: which
// nodes fork, which join, which start a branch on a copy of the state.
type plan struct {
	joins    map[string][]string // join → its static predecessors, in declaration order
	forkOf   map[string]string   // join → the fork its branches start from
	forks    map[string]bool     // nodes whose output is a merge base
	clones   map[string]bool     // nodes that start a branch: they work on a copy
	sends    map[string]string   // nodes a BySend router may run several times → that router's node
	inBranch map[string]bool     // nodes whose state is one branch's, not the run's
}

func (p *plan) parallel() bool { return len(p.forks) > 0 }

// planOf reads the graph's parallel structure. A node with several static
// edges out, or a router that fans out, is a fork; a node with several
// static edges in is a join, and its fork is the nearest node every one of
// its predecessors descends from.
func planOf[S any](g *StateGraph[S]) (*plan, error) {
	p := &plan{joins: map[string][]string{}, forkOf: map[string]string{}, forks: map[string]bool{},
		clones: map[string]bool{}, sends: map[string]string{}, inBranch: map[string]bool{}}
	out := map[string][]string{}
	for _, e := range g.edges {
		out[e.from] = append(out[e.from], e.to)
	}
	for from, tos := range out {
		if len(tos) > 1 {
			if slices.Contains(tos, END) {
				return nil, fmt.Errorf("node %q: an edge to END beside others would end the run while branches work", from)
			}
			p.forks[from] = true
			for _, to := range tos {
				p.clones[to] = true
			}
		}
	}
	for _, b := range g.branches {
		if !b.router.fansOut() {
			continue
		}
		p.forks[b.from] = true
		for _, to := range out[b.from] {
			if to != END {
				p.clones[to] = true // a fixed edge runs beside the router's targets
			}
		}
		for _, to := range b.targets {
			if _, ok := b.router.(sendRouter[S]); ok {
				p.sends[to] = b.from
			} else if to != END {
				p.clones[to] = true
			}
		}
	}
	succ := successors(g)
	for _, e := range g.edges {
		// An edge that closes a loop (its source is reached only through
		// its target) is another way in, not a branch to wait for.
		if e.to != END && reachableAvoiding(succ, START, e.from, e.to) {
			p.joins[e.to] = append(p.joins[e.to], e.from)
		}
	}
	for j, preds := range p.joins {
		if len(preds) < 2 {
			delete(p.joins, j)
		}
	}
	for _, j := range sortedKeys(p.joins) {
		fork, err := nearestFork(succ, p.forks, p.joins[j])
		if err != nil {
			return nil, fmt.Errorf("join %q: %w", j, err)
		}
		p.forkOf[j] = fork
		markBranches(succ, fork, j, p.inBranch)
	}
	return p, nil
}

// successors lists every node each node may go to, by either kind of edge.
func successors[S any](g *StateGraph[S]) map[string][]string {
	succ := map[string][]string{}
	for _, e := range g.edges {
		succ[e.from] = append(succ[e.from], e.to)
	}
	for _, b := range g.branches {
		for _, k := range sortedKeys(b.targets) {
			succ[b.from] = append(succ[b.from], b.targets[k])
		}
	}
	return succ
}

// nearestFork is the fork from which every predecessor is reachable, the
// one with the shortest longest path to them.
func nearestFork(succ map[string][]string, forks map[string]bool, preds []string) (string, error) {
	best, bestDist := "", -1
	for _, f := range sortedKeys(forks) {
		dist := distances(succ, f)
		worst := 0
		for _, p := range preds {
			d, ok := dist[p]
			if !ok {
				worst = -1
				break
			}
			worst = max(worst, d)
		}
		if worst >= 0 && (bestDist < 0 || worst < bestDist) {
			best, bestDist = f, worst
		}
	}
	if best == "" {
		return "", fmt.Errorf("its predecessors %v do not start from one fork (a node with several edges out)", preds)
	}
	return best, nil
}

// reachableAvoiding says whether to is reachable from from without
// passing through avoid.
func reachableAvoiding(succ map[string][]string, from, to, avoid string) bool {
	seen := map[string]bool{from: true}
	queue := []string{from}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if n == to {
			return true
		}
		for _, m := range succ[n] {
			if !seen[m] && m != avoid {
				seen[m] = true
				queue = append(queue, m)
			}
		}
	}
	return false
}

// distances are the shortest path lengths from a node, by breadth first.
func distances(succ map[string][]string, from string) map[string]int {
	dist := map[string]int{}
	queue := []string{from}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, m := range succ[n] {
			if _, seen := dist[m]; !seen && m != from {
				dist[m] = dist[n] + 1
				queue = append(queue, m)
			}
		}
	}
	return dist
}

// markBranches marks the nodes between a fork and its join.
func markBranches(succ map[string][]string, fork, join string, in map[string]bool) {
	queue := slices.Clone(succ[fork])
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if n == join || n == END || n == fork || in[n] {
			continue
		}
		in[n] = true
		queue = append(queue, succ[n]...)
	}
}
