// Package record splits a checkpoint into what the persistent stores keep in
// one row or hash: a small JSON header with everything but the state, and
// the state as pieces (package blob) kept once per thread and listed in the
// row, or, in rows written before pieces, whole. Thread and ID are the
// row's key, so they are left out.
package record

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/checkpoint/internal/blob"
	"github.com/sgrgraph/sgrgraph/checkpoint/internal/rules"
)

type header struct {
	Parent     string              `json:"parent,omitempty"`
	Next       []string            `json:"next,omitempty"`
	Interrupts []interrupt         `json:"interrupts,omitempty"`
	Branches   []checkpoint.Branch `json:"branches,omitempty"`
	Metadata   checkpoint.Metadata `json:"metadata"`
}

// interrupt omits an empty payload so that it reads back empty, not "null".
type interrupt struct {
	ID      string          `json:"id,omitempty"`
	Node    string          `json:"node"`
	Index   int             `json:"index"`
	Payload json.RawMessage `json:"payload,omitempty"`
	Value   json.RawMessage `json:"value,omitempty"`
}

// ForPut is what every store does first in Put: cp checked and timed
// (Prepare), and its header (Header).
func ForPut(cp checkpoint.Checkpoint, now time.Time) (checkpoint.Checkpoint, []byte, error) {
	cp, err := Prepare(cp, now)
	if err != nil {
		return cp, nil, err
	}
	h, err := Header(cp)
	return cp, h, err
}

// State is cp's state as a column stores it: empty, never NULL.
func State(cp checkpoint.Checkpoint) []byte {
	if cp.State == nil {
		return []byte{}
	}
	return cp.State
}

// Prepare checks cp for Put and sets Metadata.Time to now when it is zero;
// times are kept in UTC so that Put and Get return equal values.
func Prepare(cp checkpoint.Checkpoint, now time.Time) (checkpoint.Checkpoint, error) {
	if err := rules.Put(cp.Thread, cp.ID, cp.Parent, len(cp.State), cp.Metadata.Time); err != nil {
		return cp, err
	}
	for i, in := range cp.Interrupts {
		if err := rules.Interrupt(i, in.Payload, in.Value); err != nil {
			return cp, err
		}
	}
	for i, b := range cp.Branches {
		if err := rules.Branch(i, b.State); err != nil {
			return cp, err
		}
	}
	if cp.Metadata.Time.IsZero() {
		cp.Metadata.Time = now
	}
	cp.Metadata.Time = cp.Metadata.Time.UTC()
	return cp, nil
}

// Header encodes everything of cp but its thread, ID and state.
func Header(cp checkpoint.Checkpoint) ([]byte, error) {
	h := header{Parent: cp.Parent, Next: cp.Next, Branches: cp.Branches, Metadata: cp.Metadata}
	for _, in := range cp.Interrupts {
		h.Interrupts = append(h.Interrupts, interrupt(in))
	}
	b, err := json.Marshal(h)
	if err != nil {
		return nil, fmt.Errorf("encode header: %w", err)
	}
	return b, nil
}

// Decode rebuilds a checkpoint from its key, header and state. The state is
// used as is, not copied.
func Decode(thread, id string, hdr, state []byte) (checkpoint.Checkpoint, error) {
	var h header
	if err := json.Unmarshal(hdr, &h); err != nil {
		return checkpoint.Checkpoint{}, fmt.Errorf("thread %q checkpoint %q: corrupt header: %w", thread, id, err)
	}
	cp := checkpoint.Checkpoint{Thread: thread, ID: id, Parent: h.Parent, Next: h.Next, Branches: h.Branches, Metadata: h.Metadata}
	for _, in := range h.Interrupts {
		cp.Interrupts = append(cp.Interrupts, checkpoint.Interrupt(in))
	}
	if len(state) > 0 {
		cp.State = state
	}
	return cp, nil
}

// Collector rebuilds checkpoints from the rows of a query that joins each
// checkpoint to the pieces of its state: one row per piece (or one row
// with no piece for a checkpoint whose state is kept whole, the format
// written before pieces), a checkpoint's rows together, in the order the
// checkpoints are wanted.
type Collector struct {
	Thread string
	list   []collected
	pieces map[string][]byte
}

type collected struct {
	id            string
	header, state []byte
	manifest      []string // nil: the state is whole in state
}

// Add takes one row. manifest decodes the row's list of pieces, nil when
// the row has none; it is called once per checkpoint. hash is "" when the
// row joins no piece.
func (c *Collector) Add(id string, header, state []byte, manifest func() ([]string, error), hash string, data []byte) error {
	if n := len(c.list); n == 0 || c.list[n-1].id != id {
		e := collected{id: id, header: header, state: state}
		if manifest != nil {
			m, err := manifest()
			if err != nil {
				return fmt.Errorf("thread %q checkpoint %q: %w", c.Thread, id, err)
			}
			e.manifest = m
		}
		c.list = append(c.list, e)
	}
	if hash != "" {
		if c.pieces == nil {
			c.pieces = map[string][]byte{}
		}
		c.pieces[hash] = data
	}
	return nil
}

// Len is how many checkpoints were added.
func (c *Collector) Len() int { return len(c.list) }

// Checkpoints returns the checkpoints added, their states joined.
func (c *Collector) Checkpoints() ([]checkpoint.Checkpoint, error) {
	out := make([]checkpoint.Checkpoint, 0, len(c.list))
	for _, e := range c.list {
		state := e.state
		if e.manifest != nil {
			var err error
			state, err = blob.Join(e.manifest, func(h string) ([]byte, bool) { d, ok := c.pieces[h]; return d, ok })
			if err != nil {
				return nil, fmt.Errorf("thread %q checkpoint %q: %w", c.Thread, e.id, err)
			}
		}
		cp, err := Decode(c.Thread, e.id, e.header, state)
		if err != nil {
			return nil, err
		}
		out = append(out, cp)
	}
	return out, nil
}

// Pieces are the pieces of a state to put and its manifest (nil for an
// empty state, which the stores keep as before, whole and empty).
func Pieces(cp checkpoint.Checkpoint) ([]blob.Piece, []string) {
	pieces := blob.Split(cp.State)
	if len(pieces) == 0 {
		return nil, nil
	}
	return pieces, blob.Hashes(pieces)
}

// Distinct are the pieces with their counts in the manifest, each once.
func Distinct(pieces []blob.Piece) ([]blob.Piece, map[string]int) {
	counts := map[string]int{}
	var out []blob.Piece
	for _, p := range pieces {
		if counts[p.Hash] == 0 {
			out = append(out, p)
		}
		counts[p.Hash]++
	}
	return out, counts
}

// WithoutState is cp as ListOptions.NoState returns it.
func WithoutState(cp checkpoint.Checkpoint) checkpoint.Checkpoint {
	cp.State = nil
	for i := range cp.Branches {
		cp.Branches[i].State = nil
	}
	return cp
}

// Rows are the rows of a query, as database/sql and pgx both give them.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// Heads rebuilds, without their states, the checkpoints of thread from
// rows of (id, header).
func Heads(thread string, rows Rows) ([]checkpoint.Checkpoint, error) {
	var out []checkpoint.Checkpoint
	for rows.Next() {
		var id string
		var header []byte
		if err := rows.Scan(&id, &header); err != nil {
			return nil, err
		}
		cp, err := Decode(thread, id, header, nil)
		if err != nil {
			return nil, err
		}
		out = append(out, WithoutState(cp))
	}
	return out, rows.Err()
}
