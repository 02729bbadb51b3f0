package runs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// Event is one entry of a run's event stream. Kind is "started" (a worker
// took the run; Data holds the attempt), a contracts.EventKind (Data is the
// contracts.Event), then "result" (Data is the StructuredResult) or "error"
// (Data is {"error": why}), which end the stream. A run taken again after its
// worker died has a second "started" and the events of the new attempt.
type Event struct {
	// ID is the event's position: pass it as after to read what follows.
	ID   string          `json:"id"`
	Kind string          `json:"kind"`
	Data json.RawMessage `json:"data"`
}

// Last says the event ends its run's stream.
func (e Event) Last() bool { return e.Kind == "result" || e.Kind == "error" }

// MaxWait bounds how long Events waits for a new event.
const MaxWait = 30 * time.Second

// Events returns the events of owner's run id that follow position after
// ("" or "0" for the first), at most 500; when there are none yet it waits
// up to wait for some. ErrNotFound if owner has no such run.
func (q *Queue) Events(ctx context.Context, owner, id, after string, wait time.Duration) ([]Event, error) {
	if after == "" {
		after = "0"
	}
	if wait < 0 || wait > MaxWait {
		return nil, fmt.Errorf("runs: events: wait %s is outside 0..%s", wait, MaxWait)
	}
	cctx, cancel := q.call(ctx)
	owned, err := q.client.HGet(cctx, q.runKey(id), "owner").Result()
	cancel()
	switch {
	case errors.Is(err, redis.Nil) || (err == nil && owned != owner) || CheckID(id) != nil:
		return nil, ErrNotFound
	case err != nil:
		return nil, fmt.Errorf("runs: events %s: %w", id, err)
	}
	args := &redis.XReadArgs{Streams: []string{q.eventKey(id), after}, Count: 500, Block: -1}
	if wait > 0 {
		args.Block = wait
	}
	rctx, cancel := context.WithTimeout(ctx, q.opts.Timeout+wait)
	defer cancel()
	streams, err := q.client.XRead(rctx, args).Result()
	switch {
	case errors.Is(err, redis.Nil):
		return nil, nil // nothing new within wait
	case err != nil:
		return nil, fmt.Errorf("runs: events %s after %s: %w", id, after, err)
	}
	var out []Event
	for _, st := range streams {
		for _, m := range st.Messages {
			kind, _ := m.Values["kind"].(string)
			data, _ := m.Values["data"].(string)
			out = append(out, Event{ID: m.ID, Kind: kind, Data: json.RawMessage(data)})
		}
	}
	return out, nil
}

// Wait returns owner's run id once it has finished, reading its events as
// they come; ctx bounds the wait.
func (q *Queue) Wait(ctx context.Context, owner, id string) (Run, error) {
	after := "0"
	for {
		evs, err := q.Events(ctx, owner, id, after, 5*time.Second)
		if err != nil {
			return Run{}, err
		}
		for _, ev := range evs {
			after = ev.ID
			if ev.Last() {
				return q.Get(ctx, owner, id)
			}
		}
		if len(evs) == 0 {
			// No event for a while: the run may have ended under another
			// event stream (it expired and was submitted again); ask.
			r, err := q.Get(ctx, owner, id)
			if err != nil || r.Status.Finished() {
				return r, err
			}
		}
		if err := ctx.Err(); err != nil {
			return Run{}, err
		}
	}
}
