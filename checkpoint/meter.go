package checkpoint

import (
	"context"
	"sync/atomic"
)

// Meter is a Store that says what it writes and what it keeps. Every shipped
// store is one; benchmarks and the conformance suite read it.
type Meter interface {
	// Written counts what this Store value gave its backend since it was
	// opened (not what other processes wrote).
	Written() Written
	// Stored counts the state pieces the store keeps for thread, or for
	// every thread when thread is "".
	Stored(ctx context.Context, thread string) (Stored, error)
}

// Written counts the writes of Put.
type Written struct {
	Checkpoints int64 // checkpoints put
	Pieces      int64 // state pieces written (those the thread did not have yet)
	// Bytes is everything Put gave the backend: the pieces written, the
	// headers, the lists of pieces, and the states of old-format rows.
	Bytes int64
}

// Stored counts the state pieces a store keeps.
type Stored struct {
	Pieces int   // distinct pieces
	Bytes  int64 // their size
}

// WriteMeter counts writes for a Meter's Written; the zero value is ready.
// For implementations of Store.
type WriteMeter struct{ checkpoints, pieces, bytes atomic.Int64 }

// Add counts one Put that wrote pieces pieces and bytes bytes in all.
func (m *WriteMeter) Add(pieces, bytes int) {
	m.checkpoints.Add(1)
	m.pieces.Add(int64(pieces))
	m.bytes.Add(int64(bytes))
}

// Written returns the counts.
func (m *WriteMeter) Written() Written {
	return Written{Checkpoints: m.checkpoints.Load(), Pieces: m.pieces.Load(), Bytes: m.bytes.Load()}
}
