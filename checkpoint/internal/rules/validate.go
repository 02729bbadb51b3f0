// Package rules holds what every checkpoint store must agree on: the input
// limits, the ID format, which checkpoints retention removes and the default
// timeout. It works on plain values so that package checkpoint itself (the
// memory store) can use it without an import cycle.
package rules

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"
)

// Limits of a checkpoint's fields, the same for every store so that a thread
// can move between them.
const (
	MaxKeyBytes   = 256      // thread, id, parent, before
	MaxStateBytes = 16 << 20 // 16 MiB
)

// Key checks a required thread or ID named field.
func Key(field, v string) error {
	if v == "" {
		return fmt.Errorf("%s is empty", field)
	}
	return OptionalKey(field, v)
}

// OptionalKey checks a thread or ID that may be empty. Keys must be valid
// UTF-8 without NUL bytes because Postgres text columns refuse anything else.
func OptionalKey(field, v string) error {
	switch {
	case len(v) > MaxKeyBytes:
		return fmt.Errorf("%s is %d bytes; the limit is %d bytes", field, len(v), MaxKeyBytes)
	case !utf8.ValidString(v):
		return fmt.Errorf("%s %q is not valid UTF-8", field, v)
	case strings.IndexByte(v, 0) >= 0:
		return fmt.Errorf("%s %q contains a NUL byte", field, v)
	}
	return nil
}

// earliest and latest bound the times that fit in int64 Unix nanoseconds,
// which the SQL stores index.
var (
	earliest = time.Unix(0, math.MinInt64)
	latest   = time.Unix(0, math.MaxInt64)
)

// Put checks the fields of a checkpoint about to be stored.
func Put(thread, id, parent string, stateBytes int, t time.Time) error {
	if err := Key("thread", thread); err != nil {
		return err
	}
	if err := OptionalKey("id", id); err != nil {
		return err
	}
	if err := OptionalKey("parent", parent); err != nil {
		return err
	}
	if stateBytes > MaxStateBytes {
		return fmt.Errorf("state is %d bytes; the limit is 16 MiB (%d bytes)", stateBytes, MaxStateBytes)
	}
	if !t.IsZero() && (t.Before(earliest) || t.After(latest)) {
		return fmt.Errorf("metadata time %s is outside %d..%d", t, earliest.Year(), latest.Year())
	}
	return nil
}

// List checks the arguments of Store.List.
func List(thread string, limit int, before string) error {
	if err := Key("thread", thread); err != nil {
		return err
	}
	if limit < 0 {
		return fmt.Errorf("limit is %d; it must be 0 (no limit) or more", limit)
	}
	return OptionalKey("before", before)
}

// Retention checks the arguments of Store.Prune; thread "" means every thread.
func Retention(thread string, keepLast int, maxAge time.Duration) error {
	if err := OptionalKey("thread", thread); err != nil {
		return err
	}
	if keepLast < 0 {
		return fmt.Errorf("retention KeepLast is %d; it must be 0 (no limit) or more", keepLast)
	}
	if maxAge < 0 {
		return fmt.Errorf("retention MaxAge is %s; it must be 0 (no limit) or more", maxAge)
	}
	return nil
}

// Interrupt checks the payload and value of the i-th interrupt: the stores
// keep them inside a JSON header, so they must be JSON themselves (or empty).
func Interrupt(i int, payload, value []byte) error {
	if len(payload) > 0 && !json.Valid(payload) {
		return fmt.Errorf("interrupts[%d].payload is not valid JSON", i)
	}
	if len(value) > 0 && !json.Valid(value) {
		return fmt.Errorf("interrupts[%d].value is not valid JSON", i)
	}
	return nil
}

// Branch checks the state of the i-th branch of a paused run: the stores
// keep it inside the JSON header too.
func Branch(i int, state []byte) error {
	if !json.Valid(state) {
		return fmt.Errorf("branches[%d].state is not valid JSON", i)
	}
	return nil
}
