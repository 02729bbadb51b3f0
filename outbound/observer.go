package outbound

import (
	"context"
	"time"
)

// Attempt is one try of one call that did not succeed.
type Attempt struct {
	// Service names what was called: "model", "guard" ...
	Service string `json:"service"`
	// Try counts from 1.
	Try int `json:"try"`
	// Status is the HTTP status, 0 when there was none.
	Status int `json:"status,omitempty"`
	// Error says what went wrong.
	Error string `json:"error"`
	// Wait is the pause before the next try; 0 when no try follows.
	Wait time.Duration `json:"wait"`
	// Retried says whether another try follows.
	Retried bool `json:"retried"`
}

// Observer hears of every failed attempt, with the context of the call
// that made it. It may be called from several goroutines at once.
type Observer func(context.Context, Attempt)

type observerKey struct{}

// WithObserver returns a context whose outbound calls report to o, after
// any observer ctx already has.
func WithObserver(ctx context.Context, o Observer) context.Context {
	if prev := observerOf(ctx); prev != nil {
		next := o
		o = func(ctx context.Context, a Attempt) { prev(ctx, a); next(ctx, a) }
	}
	return context.WithValue(ctx, observerKey{}, o)
}

func observerOf(ctx context.Context) Observer {
	o, _ := ctx.Value(observerKey{}).(Observer)
	return o
}

// Report tells ctx's observers of a failed attempt, for callers that retry
// at their own level (a stream cut after its headers).
func Report(ctx context.Context, a Attempt) {
	if o := observerOf(ctx); o != nil {
		o(ctx, a)
	}
}
