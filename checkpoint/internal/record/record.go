// Package record splits a checkpoint into what the persistent stores keep in
// one row or hash: the state, stored byte for byte, and a small JSON header
// with everything else. Thread and ID are the row's key, so they are left out.
package record

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/sgrgraph/sgrgraph/checkpoint"
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
