package graph

import "context"

// Subgraph makes a compiled graph a node of another graph over the same
// state: the node runs the whole subgraph. Its stream events carry the
// node's name before their own path ("react_agent/agent_model").
func Subgraph[S any](sub *Runnable[S]) NodeFunc[S] {
	return func(ctx context.Context, s S) (S, error) {
		return sub.invoke(ctx, s, runOptions{})
	}
}
