package graph

import (
	"errors"
	"fmt"
	"time"
)

// NodeOption sets a node's policy; pass it to AddNode, or to
// WithNodeDefaults for every node of a graph.
type NodeOption func(*nodeOptions)

type nodeOptions struct {
	retry   *RetryPolicy
	timeout time.Duration
	// The node verbs (goto.go, fallback.go, defer.go, cache.go).
	dests    []string
	fallback string
	deferred bool
	cache    any // CachePolicy[S]
}

// RetryPolicy runs a failed node again, as LangGraph's RetryPolicy does.
// The zero value of a field takes the default in parentheses.
type RetryPolicy struct {
	MaxAttempts     int           // attempts in all, the first included (3)
	InitialInterval time.Duration // wait before the second attempt (500ms)
	MaxInterval     time.Duration // longest wait (128s)
	BackoffFactor   float64       // growth of the wait per attempt (2)
	Jitter          bool          // add up to 50% of the wait at random
	// RetryOn says whether an error is worth another attempt (every error
	// is, by default). A run whose own context ends is never retried.
	RetryOn func(error) bool
}

// WithRetry gives the node a retry policy.
func WithRetry(p RetryPolicy) NodeOption {
	return func(o *nodeOptions) {
		p := p
		o.retry = &p
	}
}

// WithTimeout bounds each attempt of the node. An attempt that takes longer
// fails with an error that wraps context.DeadlineExceeded and names the node.
func WithTimeout(d time.Duration) NodeOption {
	return func(o *nodeOptions) { o.timeout = d }
}

// maxAttempts is the retry limit the policy allows.
const maxAttempts = 100

func (o *nodeOptions) check() error {
	if o.timeout < 0 {
		return fmt.Errorf("timeout must not be negative, got %s", o.timeout)
	}
	if p := o.retry; p != nil {
		switch {
		case p.MaxAttempts < 0 || p.MaxAttempts > maxAttempts:
			return fmt.Errorf("retry: MaxAttempts must be between 1 and %d, got %d", maxAttempts, p.MaxAttempts)
		case p.InitialInterval < 0 || p.MaxInterval < 0:
			return errors.New("retry: intervals must not be negative")
		case p.BackoffFactor != 0 && p.BackoffFactor < 1:
			return fmt.Errorf("retry: BackoffFactor must be at least 1, got %g", p.BackoffFactor)
		}
	}
	return nil
}

// withDefaults fills the zero fields of a retry policy.
func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxAttempts == 0 {
		p.MaxAttempts = 3
	}
	if p.InitialInterval == 0 {
		p.InitialInterval = 500 * time.Millisecond
	}
	if p.MaxInterval == 0 {
		p.MaxInterval = 128 * time.Second
	}
	if p.BackoffFactor == 0 {
		p.BackoffFactor = 2
	}
	if p.RetryOn == nil {
		p.RetryOn = func(error) bool { return true }
	}
	return p
}

// wait is the pause before attempt n+1 (n ≥ 1); jitter adds up to half.
func (p RetryPolicy) wait(n int, jitter func() float64) time.Duration {
	d := float64(p.InitialInterval)
	for i := 1; i < n; i++ {
		d *= p.BackoffFactor
		if d >= float64(p.MaxInterval) {
			break
		}
	}
	d = min(d, float64(p.MaxInterval))
	if p.Jitter {
		d += d * 0.5 * jitter()
	}
	return time.Duration(d)
}
