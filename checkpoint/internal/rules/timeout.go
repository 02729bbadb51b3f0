package rules

import (
	"context"
	"time"
)

// DefaultTimeout bounds a store call whose context has no deadline, so a
// hung server or a locked file cannot block a graph run forever.
const DefaultTimeout = 30 * time.Second

// Context returns ctx with DefaultTimeout when it has no deadline.
func Context(ctx context.Context) (context.Context, context.CancelFunc) {
	if ctx == nil {
		ctx = context.Background()
	}
	if _, ok := ctx.Deadline(); ok {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, DefaultTimeout)
}
