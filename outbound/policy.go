// Package outbound is how sgrgraph calls other services (model servers,
// guard servers, later tools): one retry policy for all of them. A call is
// retried on connection errors, 429 and 5xx answers, with exponential
// backoff and full jitter, waiting what a 429's Retry-After asks; never on
// other 4xx, which a retry cannot mend. Every attempt is reported to an
// observer carried in the context, so a turn can list its retries in the
// diagnostics. A caller that retries at its own level, for a failure seen
// after the answer began (a stream cut part way), uses Policy.Again, which
// decides, reports and waits the same way. The package knows HTTP and
// nothing of eino.
package outbound

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"
)

// Policy bounds the retries of one call.
type Policy struct {
	// Attempts is the most tries of one call, the first included.
	Attempts int `yaml:"attempts" json:"attempts"`
	// BaseDelay is the backoff before the second try; it doubles each time.
	BaseDelay time.Duration `yaml:"base_delay" json:"base_delay"`
	// MaxDelay caps one wait; a server asking (Retry-After) for longer
	// ends the call rather than waiting that long.
	MaxDelay time.Duration `yaml:"max_delay" json:"max_delay"`
}

// DefaultPolicy tries three times, waiting about 0.5 s then 1 s.
func DefaultPolicy() Policy {
	return Policy{Attempts: 3, BaseDelay: 500 * time.Millisecond, MaxDelay: 20 * time.Second}
}

// Validate names each field outside its limits.
func (p Policy) Validate() error {
	var errs []error
	if p.Attempts < 1 || p.Attempts > 10 {
		errs = append(errs, fmt.Errorf("attempts: %d is outside 1..10", p.Attempts))
	}
	if p.BaseDelay < 0 || p.BaseDelay > time.Minute {
		errs = append(errs, fmt.Errorf("base_delay: %s is outside 0..1m", p.BaseDelay))
	}
	if p.MaxDelay < p.BaseDelay || p.MaxDelay > 5*time.Minute {
		errs = append(errs, fmt.Errorf("max_delay: %s is outside base_delay..5m", p.MaxDelay))
	}
	return errors.Join(errs...)
}

// Backoff is the wait before try n+1 after try n failed (n from 1): full
// jitter over BaseDelay·2^(n-1), capped at MaxDelay, so clients that failed
// together do not come back together. draw(k) picks from [0,k); nil draws
// at random.
func (p Policy) Backoff(n int, draw func(int64) int64) time.Duration {
	if draw == nil {
		draw = rand.Int64N
	}
	if p.BaseDelay <= 0 {
		return 0
	}
	ceiling := p.BaseDelay << min(n-1, 30)
	if ceiling <= 0 || ceiling > p.MaxDelay {
		ceiling = p.MaxDelay
	}
	if ceiling <= 0 {
		return 0
	}
	return time.Duration(draw(int64(ceiling) + 1))
}

// Retryable says whether an answer with this status may succeed if asked
// again: too many requests, and server errors.
func Retryable(status int) bool {
	return status == http.StatusTooManyRequests || status >= 500
}

// RetryAfter reads a Retry-After header, in seconds or as an HTTP date.
func RetryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	v := h.Get("Retry-After")
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil && s >= 0 {
		if s > int64(math.MaxInt64/time.Second) {
			return time.Duration(math.MaxInt64), true // longer than any wait: the caller gives up
		}
		return time.Duration(s) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}
