package agent

import (
	"context"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/graph"
)

// LastTurn is the state a thread's next turn goes on from: the latest
// checkpoint, unless a turn was cut there mid-way (its client went away,
// its process died). Then it is the last checkpoint where a turn ended or
// waits for a person: a next turn never builds on half a turn, such as a
// tool call without its result. checkpoint.ErrNotFound when no turn ended.
func (a *Agent) LastTurn(ctx context.Context, thread string) (graph.Snapshot[State], error) {
	last, err := a.graph.Turn.State(ctx, thread)
	if err != nil || settled(last) {
		return last, err
	}
	const page = 32
	for before := last.ID; ; {
		older, err := a.graph.Turn.History(ctx, thread, graph.Before(before), graph.Last(page))
		if err != nil {
			return graph.Snapshot[State]{}, err
		}
		for _, s := range older {
			if settled(s) {
				return s, nil
			}
		}
		if len(older) < page {
			return graph.Snapshot[State]{}, checkpoint.ErrNotFound
		}
		before = older[len(older)-1].ID
	}
}

// settled says a checkpoint ends a turn, or holds it for a person.
func settled(s graph.Snapshot[State]) bool { return len(s.Next) == 0 || len(s.Interrupts) > 0 }
