// Package memorytest is the conformance suite every memory.Store must pass,
// so that agents remember alike on the in-process, SQLite, Postgres and
// Redis stores.
package memorytest

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/memory"
)

// Run runs the conformance subtests. open must return a new, empty store for
// each subtest (for a server: a fresh database or a flushed one); Run
// closes it.
func Run(t *testing.T, open func(t *testing.T) memory.Store) {
	cases := []struct {
		name string
		test func(t *testing.T, s memory.Store)
	}{
		{"put and get round trip", testRoundTrip},
		{"put replaces and keeps created", testReplace},
		{"namespaces are isolated", testIsolation},
		{"delete", testDelete},
		{"concurrent writers", testConcurrent},
		{"list namespaces", testList},
		{"search by prefix", testSearchPrefix},
		{"search by filter", testSearchFilter},
		{"search by text", testSearchText},
		{"expired items are never returned", testExpiredHidden},
		{"expired items are purged", testPurge},
		{"an expired item put again is new", testExpiredReplaced},
		{"every call honours its context", testContext},
		{"validation", testValidation},
		{"limits are inclusive", testLimits},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := open(t)
			t.Cleanup(func() { assert.NoError(t, s.Close(), "close") })
			c.test(t, s)
		})
	}
}

// ctx bounds each call, as callers are told to bound store calls.
func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

// put stores value and fails the test on an error.
func put(t *testing.T, s memory.Store, ns []string, key, value string, ttl time.Duration) memory.Item {
	t.Helper()
	it, err := s.Put(ctx(t), ns, key, json.RawMessage(value), ttl)
	require.NoError(t, err)
	return it
}

func get(t *testing.T, s memory.Store, ns []string, key string) memory.Item {
	t.Helper()
	it, err := s.Get(ctx(t), ns, key)
	require.NoError(t, err)
	return it
}

func search(t *testing.T, s memory.Store, q memory.Query) []memory.Item {
	t.Helper()
	items, err := s.Search(ctx(t), q)
	require.NoError(t, err)
	return items
}

// keys returns the keys of items in order.
func keys(items []memory.Item) []string {
	out := []string{}
	for _, it := range items {
		out = append(out, it.Key)
	}
	return out
}

// requireSame fails unless got equals want field by field; times compare as
// instants because stores may keep them in another location.
func requireSame(t *testing.T, want, got memory.Item) {
	t.Helper()
	for _, p := range []struct {
		name string
		w, g time.Time
	}{{"created", want.Created, got.Created}, {"updated", want.Updated, got.Updated}, {"expires", want.Expires, got.Expires}} {
		require.True(t, p.w.Equal(p.g), "%s: want %s, got %s", p.name, p.w, p.g)
	}
	want.Created, want.Updated, want.Expires = time.Time{}, time.Time{}, time.Time{}
	got.Created, got.Updated, got.Expires = time.Time{}, time.Time{}, time.Time{}
	require.Equal(t, want, got)
}
