package outbound

import (
	"context"
	"fmt"
	"time"

	"github.com/rs/zerolog"
)

// next decides, after try n of a call under ctx failed, whether another
// follows and after what wait: the backoff, or the wait the server asked
// for (asked, from a Retry-After). The reason is "" when a try follows.
func (p Policy) next(ctx context.Context, n int, asked *time.Duration, draw func(int64) int64) (time.Duration, string) {
	switch {
	case ctx.Err() != nil:
		return 0, "cancelled"
	case n >= max(p.Attempts, 1):
		return 0, fmt.Sprintf("gave up after %d tries", n)
	}
	wait := p.Backoff(n, draw)
	if asked != nil {
		if *asked > p.MaxDelay {
			return 0, fmt.Sprintf("server asks to wait %s, over max_delay %s", *asked, p.MaxDelay)
		}
		wait = *asked
	}
	if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < wait {
		return 0, fmt.Sprintf("a wait of %s would pass the call's deadline", wait.Round(time.Millisecond))
	}
	return wait, ""
}

// Again is what a Transport does between tries, for a caller that retries
// at its own level (a stream cut after its answer began): try n of a call
// to service failed with failure; Again reports that to ctx's observers
// and the log, waits the backoff, and says whether another try follows.
func (p Policy) Again(ctx context.Context, service string, n int, failure error) bool {
	wait, giveUp := p.next(ctx, n, nil, nil)
	a := Attempt{Service: service, Try: n, Error: failure.Error(), Wait: wait, Retried: giveUp == ""}
	if giveUp != "" {
		a.Error += "; " + giveUp
	}
	record(ctx, "", a)
	return a.Retried && sleep(ctx, wait) == nil
}

// record logs a failed try, at info: a call that fails for good is
// reported once, as a failure, by whoever made it (the turn's result, the
// server's error line, the command's message), not once per try.
func record(ctx context.Context, url string, a Attempt) {
	ev := zerolog.Ctx(ctx).Info()
	if url != "" {
		ev = ev.Str("url", url)
	}
	ev.Str("service", a.Service).Int("try", a.Try).Int("status", a.Status).
		Dur("wait", a.Wait).Bool("retried", a.Retried).Msg(a.Error)
	Report(ctx, a)
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}
