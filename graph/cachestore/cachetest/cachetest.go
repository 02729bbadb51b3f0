// Package cachetest is the conformance suite every graph.CacheStore must
// pass, so that a cached node behaves the same in graph.MemoryCache and in
// the SQLite, Postgres and Redis stores of graph/cachestore.
package cachetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/graph"
)

// Open returns a new, empty store that keeps at least the entries of its
// last maxEntries Sets and at most maxEntries entries; the test's cleanup
// closes it.
type Open func(t *testing.T, maxEntries int) graph.CacheStore

// Run runs the subtests every CacheStore passes, graph.MemoryCache included.
func Run(t *testing.T, open Open) {
	cases := []struct {
		name string
		test func(t *testing.T, open Open)
	}{
		{"set and get round trip", testRoundTrip},
		{"set replaces", testReplace},
		{"keys are distinct", testKeys},
		{"expired entries are never returned", testExpiry},
		{"set again renews the ttl", testRenew},
		{"bounded to max entries", testBounded},
		{"concurrent callers", testConcurrent},
		{"a cached node runs once for two runnables", testGraph},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { c.test(t, open) })
	}
}

// ctx bounds each call, as callers are told to bound store calls.
func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

func set(t *testing.T, s graph.CacheStore, key, value string, ttl time.Duration) {
	t.Helper()
	require.NoError(t, s.Set(ctx(t), key, []byte(value), ttl))
}

// has fails unless key holds value.
func has(t *testing.T, s graph.CacheStore, key, value string) {
	t.Helper()
	got, ok, err := s.Get(ctx(t), key)
	require.NoError(t, err)
	require.True(t, ok, "key %q is missing", key)
	require.Equal(t, value, string(got), "key %q", key)
}

// missing fails unless key is missing, with no error.
func missing(t *testing.T, s graph.CacheStore, key string) {
	t.Helper()
	got, ok, err := s.Get(ctx(t), key)
	require.NoError(t, err)
	require.False(t, ok, "key %q holds %q", key, got)
}

func testRoundTrip(t *testing.T, open Open) {
	s := open(t, 0)
	missing(t, s, "g/n/v0/absent")
	value := []byte{0, 1, 2, 0xff, '{', '}'}
	require.NoError(t, s.Set(ctx(t), "g/n/v0/binary", value, 0))
	value[0] = 9 // the store kept its own copy
	has(t, s, "g/n/v0/binary", "\x00\x01\x02\xff{}")
	set(t, s, "g/n/v0/empty", "", time.Hour)
	has(t, s, "g/n/v0/empty", "")
}

func testReplace(t *testing.T, open Open) {
	s := open(t, 0)
	set(t, s, "k", `{"v":1}`, 0)
	set(t, s, "k", `{"v":2}`, time.Hour)
	has(t, s, "k", `{"v":2}`)
}

func testKeys(t *testing.T, open Open) {
	s := open(t, 0)
	keys := []string{"a", "a/", "a/b", "A", "ä", "a b", "a%", "a_", "a:1:b", "a\x00b"}
	for i, k := range keys {
		set(t, s, k, fmt.Sprint(i), 0)
	}
	for i, k := range keys {
		has(t, s, k, fmt.Sprint(i))
	}
	missing(t, s, "a\x00")
	missing(t, s, "b")
}

// short is the TTL of entries a test waits out: long enough for a Set and a
// Get on a slow machine, short enough to wait.
const short = 150 * time.Millisecond

// waitOut sleeps until an entry set for short before done has expired.
func waitOut(done time.Time) { time.Sleep(time.Until(done.Add(short + 20*time.Millisecond))) }

func testExpiry(t *testing.T, open Open) {
	s := open(t, 0)
	start := time.Now()
	set(t, s, "short", "x", short)
	done := time.Now()
	set(t, s, "hour", "y", time.Hour)
	set(t, s, "forever", "z", 0)
	if time.Since(start) < short {
		has(t, s, "short", "x") // not expired yet
	}
	waitOut(done)
	missing(t, s, "short")
	has(t, s, "hour", "y")
	has(t, s, "forever", "z")
	set(t, s, "short", "again", 0) // an expired key takes a new value
	has(t, s, "short", "again")
}

func testRenew(t *testing.T, open Open) {
	s := open(t, 0)
	set(t, s, "a", "1", short)
	set(t, s, "a", "2", 0) // no longer expires
	set(t, s, "b", "1", 0)
	set(t, s, "b", "2", short) // now expires
	waitOut(time.Now())
	has(t, s, "a", "2")
	missing(t, s, "b")
}

func testBounded(t *testing.T, open Open) {
	const max, extra = 5, 3
	s := open(t, max)
	for i := range max + extra {
		set(t, s, fmt.Sprint("k", i), fmt.Sprint(i), 0)
	}
	for i := extra; i < max+extra; i++ {
		has(t, s, fmt.Sprint("k", i), fmt.Sprint(i)) // the last max Sets are kept
	}
	for i := range extra {
		missing(t, s, fmt.Sprint("k", i))
	}
}

func testConcurrent(t *testing.T, open Open) {
	s := open(t, 0)
	const workers, rounds = 8, 20
	var wg sync.WaitGroup
	errs := make(chan error, workers*rounds*3)
	for w := range workers {
		wg.Go(func() {
			for i := range rounds {
				own := fmt.Sprintf("w%d/%d", w, i)
				errs <- s.Set(ctx(t), own, []byte(own), 0)
				errs <- s.Set(ctx(t), "shared", []byte(own), time.Minute)
				if _, ok, err := s.Get(ctx(t), own); err != nil || !ok {
					errs <- fmt.Errorf("get %s: ok %v, err %w", own, ok, err)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	got, ok, err := s.Get(ctx(t), "shared")
	require.NoError(t, err)
	require.True(t, ok)
	assert.Regexp(t, `^w\d/\d+$`, string(got), "one writer's whole value")
}

// job is the state of the graph testGraph runs.
type job struct {
	Input string `json:"input"`
	Out   string `json:"out,omitempty"`
}

// testGraph runs a cached node in two Runnables on one store, as two
// processes would: the second takes the first one's result.
func testGraph(t *testing.T, open Open) {
	s := open(t, 0)
	var calls sync.Map
	build := func() *graph.Runnable[*job] {
		work := func(_ context.Context, j *job) (*job, error) {
			n, _ := calls.LoadOrStore(j.Input, new(int))
			*n.(*int)++
			j.Out = "done " + j.Input
			return j, nil
		}
		r, err := graph.New[*job]("cachetest").
			AddNode("work", work, graph.WithCache(graph.CachePolicy[*job]{Key: func(j *job) string { return j.Input }, TTL: time.Minute})).
			AddEdge(graph.START, "work").AddEdge("work", graph.END).
			Compile(ctx(t), graph.WithCacheStore(s))
		require.NoError(t, err)
		return r
	}
	first, second := build(), build()
	for _, r := range []*graph.Runnable[*job]{first, second, first} {
		out, err := r.Invoke(ctx(t), &job{Input: "report"})
		require.NoError(t, err)
		require.Equal(t, "done report", out.Out)
	}
	out, err := second.Invoke(ctx(t), &job{Input: "other"})
	require.NoError(t, err)
	require.Equal(t, "done other", out.Out)
	n, _ := calls.Load("report")
	require.Equal(t, 1, *n.(*int), "the node ran once for the key")
}
