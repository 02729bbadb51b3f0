package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/runs"
)

// What a request does when its session is busy with another turn
// ("double texting"): the request's multitask_strategy field, or the
// X-Multitask-Strategy header.
const (
	// strategyReject refuses the new turn with 409 session_busy (the default).
	strategyReject = "reject"
	// strategyEnqueue waits for the running turn to end, then runs.
	strategyEnqueue = "enqueue"
	// strategyInterrupt stops the running turn, which keeps the checkpoint
	// it wrote where it stopped and answers 409 turn_interrupted, then runs.
	strategyInterrupt = "interrupt"
	// strategyRollback stops the running turn as interrupt does and deletes
	// what it wrote, then runs.
	strategyRollback = "rollback"
)

// multitaskHeader names the strategy for clients that cannot add a body field.
const multitaskHeader = "X-Multitask-Strategy"

// stopPoll is how often a running session turn looks for a request to stop
// it made on another replica. The request lives in the thread store (a
// lease on a thread of its own, stopThread); a request on the turn's own
// replica stops it at once (runningTurns). Each look costs the store two
// writes, so it is rare: a turn shorter than stopPoll never looks, and a
// served session turn costs about what it did before double texting.
const stopPoll = time.Second

// multitask is a request's strategy and the means to stop its turn.
type multitask struct {
	strategy string
	stop     context.CancelCauseFunc
}

type multitaskKey struct{}

// withMultitask checks the request's strategy (the body's field, else the
// header) and gives the request a context its turn can be stopped through:
// handlers run the turn under the returned request.
func withMultitask(r *http.Request, field string) (*http.Request, *apiError) {
	param, strategy := "multitask_strategy", field
	if strategy == "" {
		param, strategy = multitaskHeader, r.Header.Get(multitaskHeader)
	}
	switch strategy {
	case "":
		strategy = strategyReject
	case strategyReject, strategyEnqueue, strategyInterrupt, strategyRollback:
	default:
		return r, invalid(param, "invalid_value", "%s: %q is not one of reject, enqueue, interrupt, rollback", param, strategy)
	}
	ctx, stop := context.WithCancelCause(r.Context())
	return r.WithContext(context.WithValue(ctx, multitaskKey{}, &multitask{strategy: strategy, stop: stop})), nil
}

func multitaskOf(r *http.Request) *multitask {
	if m, ok := r.Context().Value(multitaskKey{}).(*multitask); ok {
		return m
	}
	return &multitask{strategy: strategyReject}
}

// turnStopped is the cause of a turn's end when another request stopped it.
type turnStopped struct {
	strategy string // interrupt or rollback
	by       string // the request that stopped it
}

func (e *turnStopped) Error() string {
	return fmt.Sprintf("the turn was stopped by request %s (multitask_strategy %s)", e.by, e.strategy)
}

// stoppedError is the answer of a turn another request stopped; nil for
// any other turn.
func (s *Server) stoppedError(r *http.Request) *apiError {
	var stopped *turnStopped
	if !errors.As(context.Cause(r.Context()), &stopped) {
		return nil
	}
	rec := recordOf(r)
	s.opts.Log.Info().Str("request", rec.id).Str("by", stopped.by).Str("strategy", stopped.strategy).Msg("turn stopped by another request")
	code, kept := "turn_interrupted", "what it wrote is kept in the session"
	if stopped.strategy == strategyRollback {
		code, kept = "turn_rolled_back", "what it wrote is deleted from the session"
	}
	return &apiError{Status: http.StatusConflict, Type: typeInvalidRequest, Code: code,
		Message: fmt.Sprintf("this turn was stopped by request %s, sent to the same session with multitask_strategy %s; %s", stopped.by, stopped.strategy, kept)}
}

// stopThread is the thread whose lease asks the turn of thread to stop.
func stopThread(thread string) string { return thread + "#stop" }

// stopOwner is the owner of a stop lease: the strategy, the request that
// asks and the holder it stops. A turn stops only for a lease naming its own
// holder, so that a lease left by a replica that died stops no later turn.
func stopOwner(strategy, by, holder string) string {
	return strategy + " by request " + by + " stops " + holder
}

// parseStopOwner reads stopOwner's form; ok is false for another lease
// (a turn looking for a stop of its own).
func parseStopOwner(owner string) (strategy, by, holder string, ok bool) {
	strategy, rest, ok1 := strings.Cut(owner, " by request ")
	by, holder, ok2 := strings.Cut(rest, " stops ")
	return strategy, by, holder, ok1 && ok2
}

// watchStops stops the request's turn on thread when another request asks
// to (interrupt, rollback), until the request ends.
func (s *Server) watchStops(r *http.Request, thread, holder string) {
	m := multitaskOf(r)
	if m.stop == nil {
		return
	}
	ctx := r.Context()
	remove := s.running.add(holder, func(why *turnStopped) { m.stop(why) })
	go func() {
		defer remove()
		tick := time.NewTicker(s.stopPoll)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			lock, err := s.agent.LockThread(ctx, stopThread(thread), "look for a stop by "+holder)
			var busy *checkpoint.BusyError
			switch {
			case err == nil:
				if err := lock.Release(); err != nil {
					s.opts.Log.Warn().Err(err).Str("request", recordOf(r).id).Msg("freeing a session's stop lease")
				}
			case errors.As(err, &busy):
				if strategy, by, target, ok := parseStopOwner(busy.Holder); ok && target == holder {
					m.stop(&turnStopped{strategy: strategy, by: by})
					return
				}
			case ctx.Err() == nil:
				s.opts.Log.Warn().Err(err).Str("request", recordOf(r).id).Msg("looking for a stop of the session's turn")
			}
		}
	}()
}

// whenBusy applies the request's strategy to a session another turn holds
// (busy): it refuses, or it waits for the thread (enqueue), having asked its
// turn to stop (interrupt, rollback), and returns the thread held.
func (s *Server) whenBusy(r *http.Request, thread, session, param string, busy *checkpoint.BusyError) (*agent.ThreadLock, *apiError) {
	rec, m := recordOf(r), multitaskOf(r)
	if m.strategy == strategyReject {
		s.opts.Log.Info().Str("request", rec.id).Str("holder", busy.Holder).Msg("session busy")
		return nil, sessionBusy(session, param, busy.Holder)
	}
	holder := "request " + rec.id
	ctx, cancel := context.WithTimeout(r.Context(), s.opts.MultitaskWait)
	defer cancel()
	var stop *agent.ThreadLock // the lease that asks the running turn to stop
	defer func() {
		if stop != nil {
			if err := stop.Release(); err != nil {
				s.opts.Log.Warn().Err(err).Str("request", rec.id).Msg("freeing a session's stop lease")
			}
		}
	}()
	running := busy.Holder
	for wait := 20 * time.Millisecond; ; wait = min(2*wait, 250*time.Millisecond) {
		if m.strategy != strategyEnqueue && stop == nil {
			l, err := s.agent.LockThread(ctx, stopThread(thread), stopOwner(m.strategy, rec.id, running))
			if err == nil {
				stop = l
				s.running.stop(running, &turnStopped{strategy: m.strategy, by: rec.id})
				s.stopRun(ctx, r, running, m.strategy)
			} else if !errors.Is(err, checkpoint.ErrBusy) && ctx.Err() == nil {
				s.opts.Log.Warn().Err(err).Str("request", rec.id).Msg("asking a session's turn to stop")
			}
		}
		select {
		case <-ctx.Done():
			return nil, s.waitEnded(r, session, param, running)
		case <-time.After(wait):
		}
		lock, err := s.agent.LockThread(ctx, thread, holder)
		var again *checkpoint.BusyError
		switch {
		case err == nil:
			if m.strategy == strategyRollback {
				if e := s.rollback(ctx, r, lock, thread); e != nil {
					return nil, e
				}
			}
			s.opts.Log.Info().Str("request", rec.id).Str("strategy", m.strategy).Str("after", running).Msg("session taken after its turn")
			return lock, nil
		case errors.As(err, &again):
			if again.Holder != running && stop != nil {
				// Another turn took the thread first: ask it to stop instead.
				_ = stop.Release()
				stop = nil
			}
			running = again.Holder
		case ctx.Err() != nil:
			return nil, s.waitEnded(r, session, param, running)
		default:
			s.opts.Log.Error().Err(err).Str("request", rec.id).Msg("locking a session")
			return nil, internalError(rec.id)
		}
	}
}

// stopRun asks the worker that runs a session's turn (its holder is
// runs.HolderOf a run) to stop it: the worker looks for the stop every
// second. Any other holder is no run's.
func (s *Server) stopRun(ctx context.Context, r *http.Request, holder, strategy string) {
	if s.opts.Runs == nil {
		return
	}
	id, ok := strings.CutPrefix(holder, runs.HolderOf(""))
	if !ok {
		return
	}
	if err := s.opts.Runs.StopRun(ctx, id, runs.Stop{Strategy: strategy, By: recordOf(r).id}); err != nil && ctx.Err() == nil {
		s.opts.Log.Warn().Err(err).Str("request", recordOf(r).id).Str("run", id).Msg("asking a worker to stop a session's run")
	}
}

// waitEnded is the answer of a request whose wait for its session ended
// before the session was free: its client left, or MultitaskWait passed.
func (s *Server) waitEnded(r *http.Request, session, param, running string) *apiError {
	if r.Context().Err() != nil {
		return &apiError{Status: 499, Type: typeInvalidRequest, Code: "client_closed", Message: "the client went away"}
	}
	what := "another turn of it"
	if id, ok := strings.CutPrefix(running, "request "); ok {
		what = "its turn of request " + id
	}
	return &apiError{Status: http.StatusConflict, Type: typeInvalidRequest, Param: param, Code: "session_wait_timeout",
		Message: fmt.Sprintf("session %s stayed busy: %s did not end within %s (multitask_strategy %s waits that long); send this turn again later",
			session, what, s.opts.MultitaskWait, multitaskOf(r).strategy)}
}

// rollback deletes from thread the checkpoints written after its last
// turn that ended: what a stopped turn wrote where it stopped. The store
// deletes only whole threads, so the thread is written again without
// them, under the lock the request holds.
func (s *Server) rollback(ctx context.Context, r *http.Request, lock *agent.ThreadLock, thread string) *apiError {
	rec := recordOf(r)
	fail := func(err error) *apiError {
		_ = lock.Release()
		s.opts.Log.Error().Err(err).Str("request", rec.id).Str("thread", thread).Msg("rolling back a stopped turn")
		return internalError(rec.id)
	}
	store := s.agent.Store()
	keep := ""
	last, err := s.agent.LastTurn(ctx, thread)
	switch {
	case err == nil:
		keep = last.ID
	case !errors.Is(err, checkpoint.ErrNotFound):
		return fail(err)
	}
	all, err := store.List(ctx, thread, checkpoint.ListOptions{})
	if err != nil {
		return fail(err)
	}
	cut := 0 // all[:cut] are newer than the last turn that ended
	for cut < len(all) && all[cut].ID != keep {
		cut++
	}
	if cut == 0 {
		return nil
	}
	if err := store.Delete(ctx, thread); err != nil {
		return fail(err)
	}
	for i := len(all) - 1; i >= cut; i-- {
		if _, err := store.Put(ctx, all[i]); err != nil {
			return fail(fmt.Errorf("writing checkpoint %s back: %w", all[i].ID, err))
		}
	}
	s.opts.Log.Info().Str("request", rec.id).Str("thread", thread).Int("deleted", cut).Msg("rolled back the stopped turn's checkpoints")
	return nil
}
