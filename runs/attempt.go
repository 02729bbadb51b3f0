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
	if spec.Assistant != "" {
		log = log.With().Str("assistant", spec.Assistant).Logger()
	}
	log.Info().Msg("run started")

	turnCtx, cancelTurn := context.WithTimeout(ctx, w.TurnTimeout)
	defer cancelTurn()
	lost := w.keepClaim(turnCtx, cancelTurn, log, msg.ID)
	h, ref, release, err := w.handler(turnCtx, spec)
	if err != nil {
		if lost() || ctx.Err() != nil {
			log.Warn().Err(err).Msg("the run's assistant was not built before the attempt ended: the run is left to another attempt")
			return
		}
		w.finish(ctx, log, msg.ID, id, keys, contracts.StructuredResult{}, err)
		return
	}
	defer release()
	t := spec.Turn()
	// A session's turn runs under a lock of the run's own (HolderOf), so
	// that a server that finds the session busy knows the run, and may
	// stop it (StopRun; multitask_strategy interrupt or rollback).
	stopCtx, stopTurn := context.WithCancelCause(turnCtx)
	defer stopTurn(nil)
	if l, ok := h.(threadLocker); ok && spec.Thread != "" {
		lock, err := l.LockThread(stopCtx, spec.Thread, HolderOf(id))
		if err != nil {
			if lost() || ctx.Err() != nil {
				log.Warn().Err(err).Msg("the run's session was not taken before the attempt ended: the run is left to another attempt")
				return
			}
			w.finish(ctx, log, msg.ID, id, keys, contracts.StructuredResult{}, err)
			return
		}
		t.Lock = lock
		go w.watchStop(stopCtx, log, id, stopTurn)
	}
	out := newEventWriter(q, id, log)
	t.Events = out.add
	res, err := h.Run(log.WithContext(stopCtx), t)
	out.close()
	gone := lost()
	var stopped *Stop
	switch {
	case gone:
		log.Warn().Msg("another worker took the run over: this attempt's end is not recorded")
		return
	case err != nil && errors.As(context.Cause(stopCtx), &stopped):
		err = stopped // the turn's end is the stop's
	case err != nil && ctx.Err() != nil:
		log.Warn().Err(err).Msg("the worker stopped mid-turn: the run is left to another attempt")
		return
	}
	if in, ok := w.interruptOf(ctx, log, h, spec, ref, err); ok {
		w.interrupted(ctx, log, msg.ID, id, keys, in)
		return
	}
	w.finish(ctx, log, msg.ID, id, keys, res, err)
}

// handler is what runs spec's turn: the Worker's Handler, or the agent of
// the assistant the spec names (release gives it back).
func (w Worker) handler(ctx context.Context, spec Spec) (h Handler, ref agent.Ref, release func(), err error) {
	if spec.Assistant == "" {
		return w.Handler, agent.Ref{}, func() {}, nil
	}
	if w.Assistants == nil {
		return nil, ref, nil, fmt.Errorf("the run names assistant %s, and this worker serves no assistants (it keeps no thread store)", spec.Assistant)
	}
	if ref, err = agent.ParseRef(spec.Assistant); err != nil {
		return nil, ref, nil, fmt.Errorf("the run's assistant: %w", err)
	}
	a, at, release, err := w.Assistants.Agent(ctx, ref)
	if err != nil {
		return nil, ref, nil, fmt.Errorf("assistant %s could not be built: %w", ref, err)
	}
	return a, at, release, nil
}

// interruptOf is the review a turn that paused waits for (false for any
// other end). A paused turn without a thread of its own ran in one the
// agent made (review-...): when an assistant ran it, that thread is bound
// to the assistant here, so that the resume runs the same configuration.
func (w Worker) interruptOf(ctx context.Context, log zerolog.Logger, h Handler, spec Spec, ref agent.Ref, err error) (Interrupt, bool) {
	thread, req, paused := agent.Paused(err)
	if !paused {
		return Interrupt{}, false
	}
	in := Interrupt{Thread: thread, ThreadID: ReviewThreadID(thread), Reason: req.Reason}
	ctx = context.WithoutCancel(ctx)
	if r, ok := h.(reviewReader); ok {
		p, perr := r.PendingReview(ctx, thread)
		switch {
		case perr != nil:
			log.Error().Err(perr).Str("thread", thread).Msg("reading the held draft of a paused run")
		case p != nil:
			in.InterruptID, in.Turn = p.InterruptID, p.Turn
		}
	}
	if spec.Assistant != "" && spec.Thread == "" && w.Assistants != nil {
		if berr := w.Assistants.Bind(ctx, thread, ref); berr != nil {
			log.Error().Err(berr).Str("thread", thread).Msg("recording the assistant of a paused run's thread: its resume takes the server's configuration")
		}
	}
	return in, true
}

// threadLocker takes a session's thread: *agent.Agent is one.
type threadLocker interface {
	LockThread(ctx context.Context, thread, owner string) (*agent.ThreadLock, error)
}

// reviewReader reads the review a thread waits for: *agent.Agent is one.
type reviewReader interface {
	PendingReview(ctx context.Context, thread string) (*agent.PendingReview, error)
}

// interrupted records the end of a run whose draft waits for review.
func (w Worker) interrupted(ctx context.Context, log zerolog.Logger, delivery, id string, keys []string, in Interrupt) {
	q := w.Queue
	data, _ := json.Marshal(in) // plain strings and a number
	record, _ := json.Marshal(interruptRecord{Interrupt: in, Thread: in.Thread})
	cctx, cancel := q.call(context.WithoutCancel(ctx))
	defer cancel()
	n, err := q.scripts.finish.Run(cctx, q.client, keys, delivery, string(Interrupted), "", "",
		time.Now().UnixMilli(), int(q.opts.Keep.Seconds()), "interrupted", data, id, string(record)).Int()
	switch {
	case err != nil:
		log.Error().Err(err).Msg("could not record the run's pause; it will run again after its claim lapses")
	case n == 0:
		log.Warn().Msg("an earlier attempt had recorded the run's end: this one is dropped")
	default:
		log.Info().Str("thread", in.Thread).Str("interrupt", in.InterruptID).Msg("run interrupted: its draft waits for review")
	}
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
		time.Now().UnixMilli(), int(q.opts.Keep.Seconds()), kind, data, id, "").Int()
	switch {
	case err != nil:
		log.Error().Err(err).Msg("could not record the run's end; it will run again after its claim lapses")
	case n == 0:
		log.Warn().Msg("an earlier attempt had recorded the run's end: this one is dropped")
	default:
		log.Info().Str("status", string(status)).Str("action", string(res.Action)).Msg("run finished")
	}
}

// failure is what a failed run tells its client.
func failure(err error) string {
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
