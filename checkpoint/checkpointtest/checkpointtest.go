// Package checkpointtest is the conformance suite every checkpoint.Store must
// pass, so that a graph behaves the same on the memory, SQLite, Postgres and
// Redis stores.
package checkpointtest

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/checkpoint"
)

// Run runs the conformance subtests. open must return a new, empty store for
// each subtest (for a server: a fresh database or a flushed one); Run closes it.
// The lock subtests run for a store that is a checkpoint.Locker; RunShared
// checks its leases across processes.
func Run(t *testing.T, open func(t *testing.T) checkpoint.Store) {
	cases := []struct {
		name string
		test func(t *testing.T, s checkpoint.Store)
	}{
		{"put and get round trip", testRoundTrip},
		{"caller chosen id and time", testCallerChoices},
		{"latest", testLatest},
		{"list newest first", testList},
		{"fork", testFork},
		{"threads are isolated", testIsolation},
		{"concurrent writers on one thread", testConcurrentWriters},
		{"large state is byte exact", testLargeState},
		{"interrupted run", testInterrupted},
		{"corrupt and foreign state", testCodecErrors},
		{"retention keep last", testKeepLast},
		{"retention max age", testMaxAge},
		{"threads listing", testThreads},
		{"delete", testDelete},
		{"not found", testNotFound},
		{"validation", testValidation},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := open(t)
			t.Cleanup(func() { assert.NoError(t, s.Close(), "close") })
			c.test(t, s)
		})
	}
	for _, c := range pieceCases {
		t.Run(c.name, func(t *testing.T) {
			s := open(t)
			t.Cleanup(func() { assert.NoError(t, s.Close(), "close") })
			c.test(t, s)
		})
	}
	for _, c := range lockCases {
		t.Run(c.name, func(t *testing.T) {
			s := open(t)
			t.Cleanup(func() { assert.NoError(t, s.Close(), "close") })
			c.test(t, locker(t, s))
		})
	}
}

// ctx bounds each subtest, as callers are told to bound store calls.
func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

// state is the test state the Codec subtests decode.
type state struct {
	Messages []string `json:"messages"`
	Count    int      `json:"count"`
}

// newCheckpoint returns a checkpoint of thread at step with a small state.
func newCheckpoint(thread string, step int) checkpoint.Checkpoint {
	s, _ := json.Marshal(state{Messages: []string{"step"}, Count: step})
	return checkpoint.Checkpoint{
		Thread:   thread,
		Next:     []string{"model"},
		Metadata: checkpoint.Metadata{Step: step, Source: "loop", Node: "model", Version: 1},
		State:    s,
	}
}

// put stores cp and fails the test on an error.
func put(t *testing.T, s checkpoint.Store, cp checkpoint.Checkpoint) checkpoint.Checkpoint {
	t.Helper()
	got, err := s.Put(ctx(t), cp)
	require.NoError(t, err)
	return got
}

// putN stores n checkpoints of thread, each continuing the previous one.
func putN(t *testing.T, s checkpoint.Store, thread string, n int) []checkpoint.Checkpoint {
	t.Helper()
	var out []checkpoint.Checkpoint
	parent := ""
	for i := range n {
		cp := newCheckpoint(thread, i)
		cp.Parent = parent
		got := put(t, s, cp)
		parent = got.ID
		out = append(out, got)
	}
	return out
}

// ids returns the IDs of cps in order.
func ids(cps []checkpoint.Checkpoint) []string {
	out := make([]string, len(cps))
	for i, cp := range cps {
		out[i] = cp.ID
	}
	return out
}

// requireSame fails unless got equals want field by field; times compare as
// instants because stores may keep them in another location.
func requireSame(t *testing.T, want, got checkpoint.Checkpoint) {
	t.Helper()
	require.True(t, want.Metadata.Time.Equal(got.Metadata.Time), "time: want %s, got %s", want.Metadata.Time, got.Metadata.Time)
	want.Metadata.Time, got.Metadata.Time = time.Time{}, time.Time{}
	require.Equal(t, want, got)
}
