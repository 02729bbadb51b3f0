package sgrtest

import (
	"context"
	"sync"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/events"
	"github.com/sgrgraph/sgrgraph/graph"
)

// Recorder collects the events of a run; it is safe for concurrent use.
type Recorder struct {
	mu     sync.Mutex
	events []contracts.Event
}

// Sink is the recorder as an event sink.
func (r *Recorder) Sink(ev contracts.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, ev)
}

// Events returns a copy of the events so far.
func (r *Recorder) Events() []contracts.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]contracts.Event(nil), r.events...)
}

// RunNode runs one node on s as the graph would (named in the context, so
// its events carry the name) and returns the state and the events it
// reported.
func RunNode(ctx context.Context, name string, node graph.NodeFunc[*contracts.ChatState], s *contracts.ChatState) (*contracts.ChatState, []contracts.Event, error) {
	rec := &Recorder{}
	ctx = events.WithNode(events.WithSink(ctx, rec.Sink), name)
	out, err := node(ctx, s)
	return out, rec.Events(), err
}
