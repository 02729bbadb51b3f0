// Package rules holds what every memory store must agree on: the input
// limits, how a namespace is encoded for prefix scans, how many expired
// items a write purges and the default timeout. It works on plain values so
// that package memory itself (the in-process store) can use it without an
// import cycle.
package rules

import (
	"context"
	"time"
)

// Limits of an item's fields and of a query, the same for every store so
// that items can move between stores.
const (
	MaxParts       = 8        // parts of a namespace
	MaxPartBytes   = 128      // bytes of one namespace part
	MaxKeyBytes    = 256      // bytes of a key, like a checkpoint thread
	MaxValueBytes  = 64 << 10 // bytes of a value: a fact to remember, not a document
	MaxTTL         = 100 * 365 * 24 * time.Hour
	MaxLimit       = 1000 // items or namespaces one call returns
	DefaultLimit   = 10   // what Limit 0 returns, as LangGraph's store search
	MaxFilterField = 32   // fields of a filter
	MaxTextBytes   = 4096 // bytes of a text query
)

// PurgeBatch is how many expired items every Put removes on its way, so
// expired items go without a sweeper goroutine and no Put does unbounded work.
const PurgeBatch = 100

// DefaultTimeout bounds a store call whose context has no deadline, so a
// hung server or a locked file cannot hold a turn forever.
const DefaultTimeout = 10 * time.Second

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
