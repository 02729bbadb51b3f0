package graph

import (
	"context"
	"fmt"
	"strings"
)

// WithFallback names the node the run goes on at when this node fails for
// good (after its retries): the fallback node gets the state the failed
// node was given (a copy made before it ran, since a node may change its
// state before it fails) and reads the error with
// ErrorOf; the failed node's own edges and Gotos do not run. An interrupt
// or the run's own cancellation is not a failure. Compile refuses a
// fallback on a node inside parallel branches or run by BySend: the branch
// it leaves would keep its join waiting. The diagram draws the fallback as
// a dashed edge labelled "on error".
func WithFallback(node string) NodeOption { return func(o *nodeOptions) { o.fallback = node } }

// ErrorOf is, in a fallback node (WithFallback), the error of the node that
// failed over to it; nil when the node was reached another way.
func ErrorOf(ctx context.Context) error {
	if sk := sinkOf(ctx); sk != nil {
		return sk.nr.handed
	}
	return nil
}

// markFailure notes that the node's own function failed (after its
// retries), so around can tell it from the failures of the framework
// around it (a checkpoint write, a merge) that no fallback should hide.
func (r *Runnable[S]) markFailure(name string, call NodeFunc[S]) NodeFunc[S] {
	if r.verbs.node(name).fallback == "" {
		return call
	}
	return func(ctx context.Context, s S) (S, error) {
		out, err := call(ctx, s)
		if err != nil {
			if sk := sinkOf(ctx); sk != nil {
				sk.nr.mu.Lock()
				sk.nr.failed = true
				sk.nr.mu.Unlock()
				sk.nr.dirty.Store(true)
			}
		}
		return out, err
	}
}

// fallbackCondition is the hidden edge from a node to its fallback: taken
// only in a step the node failed in, handing the error over.
func (r *Runnable[S]) fallbackCondition(from, to string) func(context.Context, S) (map[string]bool, error) {
	return func(ctx context.Context, _ S) (map[string]bool, error) {
		rs := runOf(ctx)
		if err := rs.failure(from); err != nil {
			rs.hand(to, err)
			return map[string]bool{to: true}, nil
		}
		return map[string]bool{}, nil
	}
}

// checkFallback refuses what a fallback cannot do on eino's graph.
func (r *Runnable[S]) checkFallback(name, to string) error {
	p := r.plan
	switch {
	case to == END || to == START || r.g.nodes[to] == nil:
		return fmt.Errorf("node %q: WithFallback(%q): no such node", name, to)
	case to == name:
		return fmt.Errorf("node %q: WithFallback names the node itself", name)
	case p.inBranch[name] || p.clones[name] || p.sends[name] != "":
		return fmt.Errorf("node %q: WithFallback inside parallel branches is not supported: the join after the branch would wait for a node that went to its fallback", name)
	}
	return nil
}

// writeFallbacks draws each node's fallback as a dashed edge.
func (g *StateGraph[S]) writeFallbacks(b *strings.Builder, indent string, id func(string) string) {
	for _, name := range g.order {
		if to := g.nodes[name].opts.fallback; to != "" {
			fmt.Fprintf(b, "%s%s -. %q .-> %s\n", indent, id(name), "on error", id(to))
		}
	}
}
