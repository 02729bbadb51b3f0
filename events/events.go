// Package events carries a turn's live events from the nodes to whoever
// watches: a sink travels in the context, so nodes report without knowing
// who listens, and a turn without a sink pays nothing.
package events

import (
	"context"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// Sink receives events. It may be called from several goroutines at once
// (tools run in parallel) and must not block for long: the turn waits.
type Sink func(contracts.Event)

type sinkKey struct{}
type nodeKey struct{}

// WithSink returns a context whose events go to sink.
func WithSink(ctx context.Context, sink Sink) context.Context {
	return context.WithValue(ctx, sinkKey{}, sink)
}

// WithNode returns a context that names the node running in it.
func WithNode(ctx context.Context, node string) context.Context {
	return context.WithValue(ctx, nodeKey{}, node)
}

// Node is the name of the node running in ctx, or "".
func Node(ctx context.Context) string {
	n, _ := ctx.Value(nodeKey{}).(string)
	return n
}

// Watched says whether events sent in ctx reach a sink.
func Watched(ctx context.Context) bool {
	sink, _ := ctx.Value(sinkKey{}).(Sink)
	return sink != nil
}

// Emit sends ev to the sink of ctx, if there is one, naming the current
// node when ev does not.
func Emit(ctx context.Context, ev contracts.Event) {
	sink, _ := ctx.Value(sinkKey{}).(Sink)
	if sink == nil {
		return
	}
	if ev.Node == "" {
		ev.Node = Node(ctx)
	}
	sink(ev)
}
