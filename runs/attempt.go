package runs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/rs/zerolog"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/contracts"
)

// handle runs one delivered run: start it, keep its claim while the turn
// runs, stream its events, record its end. A turn cut by the worker's own
// stop, or by losing its claim, records nothing: the run stays with the
// queue for the next attempt.
func (w Worker) handle(ctx context.Context, msg redis.XMessage) {
	q := w.Queue
	id, _ := msg.Values["run"].(string)
	log := w.Log.With().Str("run", id).Str("delivery", msg.ID).Logger()
	if CheckID(id) != nil {
		log.Error().Msg("a queue entry without a valid run id: dropped")
		w.ack(ctx, msg.ID)
		return
	}
	keys := []string{q.runKey(id), q.stream(), q.eventKey(id), q.webhookStream()}
	cctx, cancel := q.call(ctx)
	reply, err := q.scripts.start.Run(cctx, q.client, keys, msg.ID, w.Name, time.Now().UnixMilli(),
		q.opts.MaxAttempts, int(q.opts.Keep.Seconds()), w.TurnTimeout.Milliseconds(), q.opts.Claim.Milliseconds(), id).Slice()
	cancel()
	if err != nil {
		log.Warn().Err(err).Msg("could not start the run; it stays queued for another attempt")
		return
	}
	switch reply[0] {
	case "finished":
		log.Info().Msg("the run had finished in an earlier attempt (or expired): not run again")
		return
	case "failed":
		log.Error().Str("error", fmt.Sprint(reply[1])).Msg("run failed")
		return
	}
	var spec Spec
	if err := json.Unmarshal([]byte(fmt.Sprint(reply[1])), &spec); err != nil {
		w.finish(ctx, log, msg.ID, id, keys, contracts.StructuredResult{}, fmt.Errorf("the queued turn is unreadable: %w", err))
		return
	}
	attempt, _ := reply[2].(int64)
	log = log.With().Str("session", spec.SessionID).Int("turn", spec.Number).Int64("attempt", attempt).Logger()
	log.Info().Msg("run started")

	turnCtx, cancelTurn := context.WithTimeout(ctx, w.TurnTimeout)
	defer cancelTurn()
	lost := w.keepClaim(turnCtx, cancelTurn, log, msg.ID)
	out := newEventWriter(q, id, log)
	t := spec.Turn()
	t.Events = out.add
	res, err := w.Handler.Run(log.WithContext(turnCtx), t)
	out.close()
	switch {
	case lost():
		log.Warn().Msg("another worker took the run over: this attempt's end is not recorded")
		return
	case err != nil && ctx.Err() != nil:
		log.Warn().Err(err).Msg("the worker stopped mid-turn: the run is left to another attempt")
		return
	}
	w.finish(ctx, log, msg.ID, id, keys, res, err)
}

// keepClaim renews the delivery every Claim/3 until ctx ends. When the
// delivery turns out to be another worker's, it cancels the turn; lost
// then reports it.
func (w Worker) keepClaim(ctx context.Context, cancelTurn context.CancelFunc, log zerolog.Logger, delivery string) (lost func() bool) {
	q := w.Queue
	var gone bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(q.opts.Claim / 3)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			cctx, cancel := q.call(ctx)
			n, err := q.scripts.renew.Run(cctx, q.client, []string{q.stream()}, delivery, w.Name).Int()
			cancel()
			switch {
			case err != nil && ctx.Err() == nil:
				log.Warn().Err(err).Msg("renewing the claim failed; trying again next tick")
			case err == nil && n == 0:
				gone = true
				cancelTurn()
				return
			}
		}
	}()
	return func() bool {
		cancelTurn()
		<-done
		return gone
	}
}

// finish records the run's end: its result, or the turn's error.
func (w Worker) finish(ctx context.Context, log zerolog.Logger, delivery, id string, keys []string, res contracts.StructuredResult, turnErr error) {
	q := w.Queue
	status, result, why, kind := Done, "", "", "result"
	var data []byte
	if turnErr != nil {
		status, why, kind = Failed, failure(turnErr), "error"
		data, _ = json.Marshal(map[string]string{"error": why})
	} else {
		var err error
		if data, err = json.Marshal(res); err != nil {
			status, why, kind = Failed, "the result could not be encoded: "+err.Error(), "error"
			data, _ = json.Marshal(map[string]string{"error": why})
		} else {
			result = string(data)
		}
	}
	// Recording the end must not be cut by the worker's stop: the turn has
	// run, and only this makes it count.
	cctx, cancel := q.call(context.WithoutCancel(ctx))
	defer cancel()
	n, err := q.scripts.finish.Run(cctx, q.client, keys, delivery, string(status), result, why,
		time.Now().UnixMilli(), int(q.opts.Keep.Seconds()), kind, data, id).Int()
	switch {
	case err != nil:
		log.Error().Err(err).Msg("could not record the run's end; it will run again after its claim lapses")
	case n == 0:
		log.Warn().Msg("an earlier attempt had recorded the run's end: this one is dropped")
	default:
		log.Info().Str("status", string(status)).Str("action", string(res.Action)).Msg("run finished")
	}
}

// failure is what a failed run tells its client. A turn held for a
// person's review cannot be answered by a worker.
func failure(err error) string {
	if _, _, ok := agent.Paused(err); ok {
		return "the answer waits for a person's review (guardian.human_review), which a worker does not take"
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "the turn took longer than the worker's turn timeout"
	}
	return err.Error()
}

func (w Worker) ack(ctx context.Context, delivery string) {
	cctx, cancel := w.Queue.call(context.WithoutCancel(ctx))
	defer cancel()
	if err := w.Queue.client.XAck(cctx, w.Queue.stream(), group, delivery).Err(); err != nil {
		w.Log.Warn().Err(err).Str("delivery", delivery).Msg("acknowledging failed")
	}
}
