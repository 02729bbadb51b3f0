package runs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/rs/zerolog"
)

// Stop asks the worker that runs a run's turn to stop it: another turn was
// sent to the run's session with multitask_strategy interrupt or rollback
// (the server's double texting). It is the cause of the stopped turn's
// end, and the run fails with its words.
type Stop struct {
	Strategy string `json:"strategy"` // interrupt or rollback
	By       string `json:"by"`       // the request that asked
}

func (s *Stop) Error() string {
	return fmt.Sprintf("the turn was stopped by request %s, sent to the same session with multitask_strategy %s", s.By, s.Strategy)
}

// HolderOf is the holder of the thread lock under which a worker runs
// run id's turn: a server that finds a session busy with it asks StopRun.
func HolderOf(id string) string { return "run " + id }

// stopPoll is how often a worker's session turn looks for a Stop: one
// HGET a second a running turn.
const stopPoll = time.Second

// stopScript records a stop on a run that exists. KEYS: the run's hash.
// ARGV: the Stop. Returns 0 when there is no such run.
const stopScript = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'stop', ARGV[1])
return 1
`

var stopRun = redis.NewScript(stopScript)

// StopRun asks the worker running run id to stop its turn; ErrNotFound
// when there is no such run. A run that has ended ignores it.
func (q *Queue) StopRun(ctx context.Context, id string, s Stop) error {
	if CheckID(id) != nil {
		return ErrNotFound
	}
	data, _ := json.Marshal(s) // two strings
	cctx, cancel := q.call(ctx)
	defer cancel()
	n, err := stopRun.Run(cctx, q.client, []string{q.runKey(id)}, data).Int()
	switch {
	case err != nil:
		return fmt.Errorf("runs: stop %s: %w", id, err)
	case n == 0:
		return ErrNotFound
	}
	return nil
}

// watchStop stops the turn of run id (stop) when StopRun asks, until ctx
// ends.
func (w Worker) watchStop(ctx context.Context, log zerolog.Logger, id string, stop context.CancelCauseFunc) {
	q := w.Queue
	tick := time.NewTicker(stopPoll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		cctx, cancel := q.call(ctx)
		data, err := q.client.HGet(cctx, q.runKey(id), "stop").Result()
		cancel()
		switch {
		case errors.Is(err, redis.Nil):
		case err != nil:
			if ctx.Err() == nil {
				log.Warn().Err(err).Msg("looking for a stop of the run's turn failed; trying again")
			}
		default:
			var s Stop
			if err := json.Unmarshal([]byte(data), &s); err != nil {
				log.Error().Err(err).Msg("an unreadable stop of the run's turn: stopping it")
			}
			log.Info().Str("by", s.By).Str("strategy", s.Strategy).Msg("the run's turn is stopped by another request")
			stop(&s)
			return
		}
	}
}
