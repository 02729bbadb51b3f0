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
// contracts.Event), then "result" (Data is the StructuredResult), "error"
// (Data is {"error": why}) or "interrupted" (Data is the Interrupt), which
// end the stream. A run taken again after its
// worker died has a second "started" and the events of the new attempt.
type Event struct {
	// ID is the event's position: pass it as after to read what follows.
	ID   string          `json:"id"`
	Kind string          `json:"kind"`
	Data json.RawMessage `json:"data"`
}

// Last says the event ends its run's stream.
func (e Event) Last() bool { return e.Kind == "result" || e.Kind == "error" || e.Kind == "interrupted" }

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
	return q.xread(ctx, id, after, wait)
}

// xread reads the events of run id that follow position after, waiting up
// to block (0: not at all) for some.
func (q *Queue) xread(ctx context.Context, id, after string, block time.Duration) ([]Event, error) {
	args := &redis.XReadArgs{Streams: []string{q.eventKey(id), after}, Count: 500, Block: -1}
	if block > 0 {
		args.Block = block
	}
	rctx, cancel := context.WithTimeout(ctx, q.opts.Timeout+block)
	defer cancel()
	streams, err := q.client.XRead(rctx, args).Result()
	switch {
	case errors.Is(err, redis.Nil):
		return nil, nil // nothing new within block
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
