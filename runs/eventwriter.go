package runs

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/redis/go-redis/v9"
	"github.com/rs/zerolog"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// maxEvents bounds one run's event stream; a run that streams more keeps
// the newest (about: Redis trims whole nodes).
const maxEvents = 10_000

// eventWriter sends a turn's events to the run's event stream in the
// background, as many per round trip as have piled up, so that a slow
// Redis slows the turn only once its buffer is full.
type eventWriter struct {
	q    *Queue
	key  string
	log  zerolog.Logger
	in   chan contracts.Event
	done sync.WaitGroup
}

func newEventWriter(q *Queue, id string, log zerolog.Logger) *eventWriter {
	w := &eventWriter{q: q, key: q.eventKey(id), log: log, in: make(chan contracts.Event, 256)}
	w.done.Add(1)
	go w.loop()
	return w
}

// add is the turn's event sink.
func (w *eventWriter) add(ev contracts.Event) { w.in <- ev }

// close sends what is left and returns when it is sent.
func (w *eventWriter) close() {
	close(w.in)
	w.done.Wait()
}

func (w *eventWriter) loop() {
	defer w.done.Done()
	for ev := range w.in {
		batch := []contracts.Event{ev}
		for more := true; more && len(batch) < 256; {
			select {
			case next, ok := <-w.in:
				if !ok {
					more = false
					break
				}
				batch = append(batch, next)
			default:
				more = false
			}
		}
		w.send(batch)
	}
}

func (w *eventWriter) send(batch []contracts.Event) {
	ctx, cancel := w.q.call(context.Background())
	defer cancel()
	pipe := w.q.client.Pipeline()
	for _, ev := range batch {
		data, err := json.Marshal(ev)
		if err != nil {
			w.log.Warn().Err(err).Str("kind", string(ev.Kind)).Msg("an event could not be encoded; it is left out of the run's stream")
			continue
		}
		pipe.XAdd(ctx, &redis.XAddArgs{Stream: w.key, MaxLen: maxEvents, Approx: true, Values: []any{"kind", string(ev.Kind), "data", data}})
	}
	if _, err := pipe.Exec(ctx); err != nil {
		w.log.Warn().Err(err).Int("events", len(batch)).Msg("events could not reach the run's stream; the result will still be recorded")
	}
}
