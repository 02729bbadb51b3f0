package graph

import (
	"context"
)

type yieldKey struct{}

// Yielding returns a context under which every node of a run yields the
// processor before it runs. A server running many turns at once wants it:
// offline nodes are pure CPU, so without a yield a turn keeps its
// processor from one node to the next while the goroutines the network
// woke (other requests being read or answered) wait in the global run
// queue. Under load that made the slowest turns two and a half times the
// median; with it they are one and a half times, and more turns finish per
// second. A lone turn is better off without it: the yields cost it about 8%.
func Yielding(ctx context.Context) context.Context {
	return context.WithValue(ctx, yieldKey{}, true)
}

// yielding says whether ctx asks the nodes to yield (Yielding).
func yielding(ctx context.Context) bool {
	on, _ := ctx.Value(yieldKey{}).(bool)
	return on
}
