package graph

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"
)

type attemptKey struct{}

// Attempt is the attempt of the node running in ctx: 1 for the first run,
// 2 for its first retry.
func Attempt(ctx context.Context) int {
	if n, ok := ctx.Value(attemptKey{}).(int); ok {
		return n
	}
	return 1
}

// attempts wraps a node in its policy: each attempt bounded by the timeout,
// failed attempts run again while the retry policy allows. With no policy
// the node is called as it is.
func attempts[S any](name string, fn NodeFunc[S], o nodeOptions) NodeFunc[S] {
	if o.retry == nil && o.timeout == 0 {
		return fn
	}
	p := RetryPolicy{MaxAttempts: 1}
	if o.retry != nil {
		p = o.retry.withDefaults()
	}
	// Each attempt works on a copy of its own: a failed attempt leaves no
	// half-made changes for the next, and one a timeout left behind goes on
	// writing to its copy, not to the run's state.
	fresh := p.MaxAttempts > 1 || o.timeout > 0
	return func(ctx context.Context, s S) (S, error) {
		for n := 1; ; n++ {
			in := s
			if fresh {
				in = copyState(s)
			}
			actx := context.WithValue(ctx, attemptKey{}, n)
			emitDebug(actx, name, DebugStart, n, 0, nil)
			start := time.Now()
			out, err := once(actx, name, fn, in, o.timeout)
			emitDebug(actx, name, DebugEnd, n, time.Since(start), err)
			if err == nil {
				return out, nil
			}
			if n >= p.MaxAttempts || ctx.Err() != nil || !p.RetryOn(err) {
				if n > 1 {
					err = fmt.Errorf("after %d attempts: %w", n, err)
				}
				return out, err
			}
			wait := p.wait(n, rand.Float64)
			select {
			case <-ctx.Done():
				return out, fmt.Errorf("node %q: waiting to retry: %w", name, ctx.Err())
			case <-time.After(wait):
			}
		}
	}
}

// once runs one attempt, bounded by timeout when there is one. A node that
// ignores its context is left behind when the time is up; what it returns
// later is dropped.
func once[S any](ctx context.Context, name string, fn NodeFunc[S], s S, timeout time.Duration) (S, error) {
	if timeout <= 0 {
		return fn(ctx, s)
	}
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type result struct {
		s   S
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, err := fn(tctx, s)
		done <- result{out, err}
	}()
	select {
	case res := <-done:
		if res.err != nil && errors.Is(tctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil {
			return res.s, timedOut(name, timeout, res.err)
		}
		return res.s, res.err
	case <-tctx.Done():
		var zero S
		if ctx.Err() != nil {
			return zero, ctx.Err()
		}
		return zero, timedOut(name, timeout, context.DeadlineExceeded)
	}
}

func timedOut(name string, d time.Duration, err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("node %q timed out after %s: %w", name, d, err)
	}
	return fmt.Errorf("node %q timed out after %s: %w (%w)", name, d, context.DeadlineExceeded, err)
}
