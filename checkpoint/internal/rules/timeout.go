package rules

import (
	"context"

	"github.com/sgrgraph/sgrgraph/internal/storeopen"
)

// DefaultTimeout bounds a store call whose context has no deadline, so a
// hung server or a locked file cannot block a graph run forever.
const DefaultTimeout = storeopen.DefaultTimeout

// Context returns ctx with DefaultTimeout when it has no deadline.
func Context(ctx context.Context) (context.Context, context.CancelFunc) {
	return storeopen.Context(ctx)
}
