package checkpoint

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Codec encodes a state of type S as versioned JSON and decodes older
// versions through Migrate. JSON, not gob, so that a state stays readable by
// people and tools and survives changes of the Go types through Migrate.
//
// Data of an unknown (newer or foreign) version and corrupt data give an
// error that says which thread, checkpoint ID and version, and why.
type Codec[S any] struct {
	Version int
	// Migrate converts the state data of an older version from to Version.
	// nil: only Version is accepted.
	Migrate func(from int, data json.RawMessage) (json.RawMessage, error)
}

// Encode returns s as JSON and the version to record in Metadata.Version.
func (c Codec[S]) Encode(s S) (json.RawMessage, int, error) {
	b, err := json.Marshal(s)
	if err != nil {
		return nil, 0, fmt.Errorf("checkpoint: encode %T state version %d: %w", s, c.Version, err)
	}
	return b, c.Version, nil
}

// Decode returns the state of cp, migrated to Version when it is older.
func (c Codec[S]) Decode(cp Checkpoint) (S, error) {
	var s S
	fail := func(err error, format string, args ...any) (S, error) {
		return s, &decodeError{cp.Thread, cp.ID, cp.Metadata.Version, fmt.Sprintf(format, args...), err}
	}
	v, data := cp.Metadata.Version, cp.State
	switch {
	case v > c.Version:
		return fail(nil, "it is newer than this program's version %d; upgrade the program that reads it", c.Version)
	case v < 0:
		return fail(nil, "it is not a version this program knows (it writes version %d)", c.Version)
	case v < c.Version && c.Migrate == nil:
		return fail(nil, "it is older than version %d and the codec has no Migrate", c.Version)
	case len(data) == 0:
		return fail(nil, "the state is empty")
	}
	if v < c.Version {
		if !json.Valid(data) {
			return fail(nil, "the state is corrupt: not valid JSON (%d bytes)", len(data))
		}
		migrated, err := c.Migrate(v, data)
		if err != nil {
			return fail(err, "migrate to version %d", c.Version)
		}
		if !json.Valid(migrated) {
			return fail(nil, "migrate to version %d returned invalid JSON", c.Version)
		}
		data = migrated
	}
	// Unmarshal checks the whole input before it decodes any of it: corrupt
	// data is a SyntaxError, and a second check would double the cost.
	if err := json.Unmarshal(data, &s); err != nil {
		if syntax := (*json.SyntaxError)(nil); errors.As(err, &syntax) {
			return fail(nil, "the state is corrupt: not valid JSON (%d bytes)", len(data))
		}
		return fail(err, "the state does not fit %T", s)
	}
	return s, nil
}

// decodeError says which checkpoint a state came from and why it did not decode.
type decodeError struct {
	thread, id string
	version    int
	reason     string
	err        error
}

func (e *decodeError) Error() string {
	msg := fmt.Sprintf("checkpoint: decode state of thread %q checkpoint %q version %d: %s", e.thread, e.id, e.version, e.reason)
	if e.err != nil {
		msg += ": " + e.err.Error()
	}
	return msg
}

func (e *decodeError) Unwrap() error { return e.err }
