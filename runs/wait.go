package runs

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// maxFailures bounds the failed calls in a row that Wait and Remote
// retry (with a backoff of 0.2 s doubling to 5 s between them, about half
// a minute in all) before they give up on Redis.
const maxFailures = 10

// StuckError is Wait's answer for a run that outlasted its limits with no
// end recorded.
type StuckError struct {
	ID      string
	Status  Status        // Queued, or Running
	Attempt int           // the attempt running
	For     time.Duration // how long the client saw it so
	Limit   time.Duration // how long it may stay so
	Parts   string        // what Limit is made of
	Waited  time.Duration // how long the client waited in all
}

func (e *StuckError) Error() string {
	what := "queued"
	if e.Status == Running {
		what = fmt.Sprintf("attempt %d running", e.Attempt)
	}
	return fmt.Sprintf("runs: run %s did not finish: %s for %s, past its limit %s (%s); waited %s in all",
		e.ID, what, e.For.Round(time.Millisecond), e.Limit, e.Parts, e.Waited.Round(time.Millisecond))
}

// Wait returns owner's run id once it has finished, or ctx's error.
//
// It follows the run's events from the first; after a failed read it
// reconnects and reads on from the last event it saw. The run's record
// decides, read again whenever the events end, go quiet or show a new
// attempt. A run with no end is given up (a *StuckError) only past the
// limits it records (Limits), counted from when the client saw its
// status or attempt change:
//   - queued: its QueueWait, and then only once no worker has taken or
//     finished any run of the queue for a QueueWait (workers that are all
//     busy are not stuck);
//   - running: its worker's TurnTimeout, then its Claim (after which a dead
//     worker's run is taken over) and Options.Timeout (to record the end),
//     and then the same QueueWait for a worker to take it over.
//
// A new attempt counts again; Options.MaxAttempts bounds the attempts.
// Wait gives up on Redis after 10 failed calls in a row (about half a
// minute), and then only if the run's record, read once more, has no end.
func (q *Queue) Wait(ctx context.Context, owner, id string) (Run, error) {
	w := &waiter{q: q, owner: owner, id: id, begun: time.Now(), after: "0"}
	return w.wait(ctx)
}

// waiter is one Wait.
type waiter struct {
	q         *Queue
	owner, id string
	begun     time.Time
	after     string    // the last event read
	run       Run       // the record as last read
	seen      time.Time // when it was read; zero: not yet
	phaseAt   time.Time // when its status or attempt was first seen
	queue     string    // the workers' progress as last read; "": not yet
	movedAt   time.Time // when it was first seen so
	due       time.Time // when the run may next be found stuck
	failures  int       // calls failed in a row
}

func (w *waiter) wait(ctx context.Context) (Run, error) {
	check := true
	for {
		if err := ctx.Err(); err != nil {
			return Run{}, err
		}
		if check {
			ended, err := w.check(ctx)
			var stuck *StuckError
			switch {
			case ended:
				return w.run, nil
			case errors.Is(err, ErrNotFound), errors.As(err, &stuck):
				return Run{}, err
			case err != nil:
				if err := w.failed(ctx, err); err != nil {
					return w.last(ctx, err)
				}
				continue
			}
			w.failures = 0
		}
		evs, err := w.read(ctx)
		if err != nil {
			if err := w.failed(ctx, err); err != nil {
				return w.last(ctx, err)
			}
			check = true // after a reconnection, the record first
			continue
		}
		w.failures = 0
		check = len(evs) == 0 || time.Since(w.seen) >= w.block()
		for _, ev := range evs {
			w.after = ev.ID
			if ev.Last() || ev.Kind == "started" {
				check = true
			}
		}
	}
}

// block is how long one read waits for events: Options.Timeout, or less
// when the run may be found stuck sooner.
func (w *waiter) block() time.Duration {
	return max(min(w.q.opts.Timeout, MaxWait, time.Until(w.due)), 10*time.Millisecond)
}

// read reads the events after the last one read, when the Queue has a
// connection to spare for a blocking read.
func (w *waiter) read(ctx context.Context) ([]Event, error) {
	select {
	case w.q.reads <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-w.q.reads }()
	return w.q.xread(ctx, w.id, w.after, w.block())
}

// failed counts a failed call and waits before the next; past maxFailures
// in a row, or once ctx is done, it returns the error to end the wait with.
func (w *waiter) failed(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	w.failures++
	if w.failures >= maxFailures {
		return fmt.Errorf("runs: wait for run %s: %d calls to Redis failed in a row over %s (the last: %w)",
			w.id, w.failures, time.Since(w.begun).Round(time.Millisecond), err)
	}
	sleep(ctx, backoff(w.failures))
	return ctx.Err()
}

// last reads the run's record once more before the wait ends with err: a
// run that finished meanwhile is its answer.
func (w *waiter) last(ctx context.Context, err error) (Run, error) {
	if ctx.Err() != nil {
		return Run{}, ctx.Err()
	}
	if r, gerr := w.q.Get(ctx, w.owner, w.id); gerr == nil && r.Status.Finished() {
		return r, nil
	}
	return Run{}, err
}

// check reads the run's record; ended says it has its end. A run with no
// end past its limits is a *StuckError.
func (w *waiter) check(ctx context.Context) (ended bool, err error) {
	r, err := w.q.Get(ctx, w.owner, w.id)
	if err != nil {
		return false, err
	}
	now := time.Now()
	if w.seen.IsZero() || r.Status != w.run.Status || r.Attempts != w.run.Attempts {
		w.phaseAt = now
	}
	w.run, w.seen = r, now
	if r.Status.Finished() {
		return true, nil
	}
	if w.queue == "" {
		// The workers' progress as the wait starts: the baseline against
		// which the queue is seen to move.
		if w.queue, err = w.q.progress(ctx); err != nil {
			return false, err
		}
		w.movedAt = now
	}
	return false, w.overdue(ctx, now)
}

// overdue is a *StuckError once the run has outlasted its limits (see
// Wait).
func (w *waiter) overdue(ctx context.Context, now time.Time) error {
	l := w.limits()
	limit := l.QueueWait
	parts := []string{fmt.Sprintf("queue wait %s with no worker taking or finishing a run", l.QueueWait)}
	if w.run.Status == Running {
		turn := l.TurnTimeout + l.Claim + w.q.opts.Timeout
		limit += turn
		parts = append([]string{fmt.Sprintf("turn timeout %s", l.TurnTimeout), fmt.Sprintf("claim %s", l.Claim),
			fmt.Sprintf("%s to record the end", w.q.opts.Timeout)}, parts...)
	}
	w.due = later(w.phaseAt.Add(limit), w.movedAt.Add(l.QueueWait))
	if now.Before(w.due) {
		return nil
	}
	progress, err := w.q.progress(ctx)
	if err != nil {
		return err
	}
	if progress != w.queue {
		// Workers took or finished runs since: they are alive, and busy.
		w.queue, w.movedAt, w.due = progress, now, now.Add(l.QueueWait)
		return nil
	}
	return &StuckError{ID: w.id, Status: w.run.Status, Attempt: w.run.Attempts, For: now.Sub(w.phaseAt),
		Limit: limit, Parts: strings.Join(parts, " + "), Waited: now.Sub(w.begun)}
}

// limits are the run's, with the defaults for what it did not record.
func (w *waiter) limits() Limits {
	l := w.run.Limits
	if l.QueueWait <= 0 {
		l.QueueWait = w.q.opts.QueueWait
	}
	if l.TurnTimeout <= 0 {
		l.TurnTimeout = DefaultTurnTimeout
	}
	if l.Claim <= 0 {
		l.Claim = w.q.opts.Claim
	}
	return l
}

// progress is where the workers are: the last run they took and how many
// they hold. It changes whenever a worker takes a new run or finishes one.
func (q *Queue) progress(ctx context.Context) (string, error) {
	cctx, cancel := q.call(ctx)
	defer cancel()
	groups, err := q.client.XInfoGroups(cctx, q.stream()).Result()
	if err != nil {
		return "", fmt.Errorf("runs: the workers' progress: %w", err)
	}
	for _, g := range groups {
		if g.Name == group {
			return fmt.Sprintf("%s/%d", g.LastDeliveredID, g.Pending), nil
		}
	}
	return "no workers' group", nil
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
