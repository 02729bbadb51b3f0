package checkpoint

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// Checkpoint is a thread's state after one super-step of a graph.
type Checkpoint struct {
	Thread string `json:"thread"`
	// ID is unique in its thread; the IDs a Store assigns sort in the order
	// they were Put. The Store assigns it when empty.
	ID string `json:"id"`
	// Parent is the checkpoint this one continues; a fork has a parent that
	// is not the thread's latest. It may name a checkpoint already pruned.
	Parent string `json:"parent,omitempty"`
	// Next lists the nodes to run next; empty: the run ended.
	Next []string `json:"next,omitempty"`
	// Interrupts are the pending interrupts: the run paused here.
	Interrupts []Interrupt `json:"interrupts,omitempty"`
	// Branches is the parallel work a run paused in parallel branches left:
	// what the branches started from, those that finished and the inputs
	// of those that paused, so that resuming runs only what did not finish.
	Branches []Branch        `json:"branches,omitempty"`
	Metadata Metadata        `json:"metadata"`
	State    json.RawMessage `json:"state"` // the encoded state (see Codec)
}

// Interrupt is one pending request of a node for outside input.
type Interrupt struct {
	// ID names the interrupt among those pending at once (one per
	// parallel branch), for a resume to answer each by its ID.
	ID      string          `json:"id,omitempty"`
	Node    string          `json:"node"`
	Index   int             `json:"index"` // the n-th Interrupt call of that node run, from 0
	Payload json.RawMessage `json:"payload"`
	// Value is the answer a resumed run gave it; nil while it waits. A
	// node that asks again keeps its answered questions in the checkpoint.
	Value json.RawMessage `json:"value,omitempty"`
}

// Branch is one piece of the parallel work of a run that paused in
// parallel branches. Its State is encoded as the checkpoint's State is,
// with the same Metadata.Version.
type Branch struct {
	// Kind is BranchBase, BranchArrived or BranchPaused.
	Kind string `json:"kind"`
	// Node is the node's path: the fork of a base, the last node of an
	// arrived branch, the node a paused branch runs again.
	Node string `json:"node"`
	// Join is the path of the node an arrived branch waits at.
	Join  string          `json:"join,omitempty"`
	State json.RawMessage `json:"state"`
}

// The kinds of Branch.
const (
	BranchBase    = "base"    // the state a fork's branches started from
	BranchArrived = "arrived" // a branch that finished and waits at its join
	BranchPaused  = "paused"  // the input of a node that paused, to run again
)

// Metadata describes how a checkpoint came to be.
type Metadata struct {
	Step   int    `json:"step"`           // super-step number in the thread, from 0
	Node   string `json:"node,omitempty"` // the node whose completion this records ("" for the input)
	Source string `json:"source"`         // "input", "loop", "interrupt", "update", "fork"
	// Time is when the checkpoint was written: Put sets it (in UTC) when it
	// is zero and keeps a time the caller chose, e.g. when copying threads.
	Time    time.Time `json:"time"`
	Version int       `json:"version"` // schema version of State (Codec.Version)
}

// ThreadInfo summarises one thread of a Store.
type ThreadInfo struct {
	Thread      string
	Checkpoints int
	Latest      time.Time // Metadata.Time of the thread's latest checkpoint
}

// ListOptions selects checkpoints of a thread, newest first.
type ListOptions struct {
	Limit  int    // at most this many; 0: all
	Before string // only checkpoints put before this ID (which must exist); "": from the latest
	// NoState leaves the states out (State and each Branch's State are
	// nil): a thread's IDs, steps, next nodes and pending interrupts
	// without the cost of reading and joining its states. Limit 1 is the
	// latest checkpoint's head.
	NoState bool
}

// Retention says which checkpoints Prune removes: those beyond the KeepLast
// newest of their thread, and those whose Metadata.Time is older than MaxAge
// (even a thread's latest, so abandoned threads disappear). 0 = no limit of
// that kind.
type Retention struct {
	KeepLast int
	MaxAge   time.Duration
}

// ErrNotFound is the error (tested with errors.Is) of Get and Latest for a
// missing thread or checkpoint, and of List for a missing Before.
var ErrNotFound = errors.New("checkpoint not found")

// Store keeps the checkpoints of many threads. Implementations are safe for
// concurrent use. Every method that talks to a server or a file honours the
// deadline of ctx; callers should pass a context with a timeout (a store
// applies a default one of 30 s when ctx has none).
type Store interface {
	// Put stores a new checkpoint and returns it with ID and Metadata.Time
	// set. It never changes a stored checkpoint: a caller-chosen ID that the
	// thread already has is an error.
	Put(ctx context.Context, cp Checkpoint) (Checkpoint, error)
	Get(ctx context.Context, thread, id string) (Checkpoint, error)
	// Latest returns the checkpoint of thread put last.
	Latest(ctx context.Context, thread string) (Checkpoint, error)
	// List returns checkpoints of thread newest first; a missing thread has none.
	List(ctx context.Context, thread string, o ListOptions) ([]Checkpoint, error)
	// Threads lists every thread that has checkpoints, the most recently
	// written first.
	Threads(ctx context.Context) ([]ThreadInfo, error)
	// Prune removes the checkpoints r does not retain from thread, or from
	// every thread when thread is "", and says how many it removed.
	Prune(ctx context.Context, thread string, r Retention) (removed int, err error)
	// Delete removes a thread and all its checkpoints; a missing thread is no error.
	Delete(ctx context.Context, thread string) error
	Close() error
}
