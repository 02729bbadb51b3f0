package memorytest

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/memory"
)

func testRoundTrip(t *testing.T, s memory.Store) {
	ns := []string{"users", "ann", "préférences"}
	value := json.RawMessage(`{ "drink": "tea",  "sugar": 1.50, "tags": ["a", "б", "😀"], "nested": {"x": null} }`)
	before := time.Now()
	out, err := s.Put(ctx(t), ns, "drinks", value, 0)
	require.NoError(t, err)
	after := time.Now()

	want := memory.Item{Namespace: slices.Clone(ns), Key: "drinks", Value: slices.Clone(value), Created: out.Created, Updated: out.Created}
	requireSame(t, want, out)
	assert.False(t, out.Created.Before(before.Add(-time.Second)) || out.Created.After(after.Add(time.Second)),
		"Put sets Created to now: %s not in [%s, %s]", out.Created, before, after)
	assert.True(t, out.Expires.IsZero(), "no TTL: never expires")

	ns[0], value[3] = "changed", 'X' // the store must have kept its own copy
	got := get(t, s, []string{"users", "ann", "préférences"}, "drinks")
	requireSame(t, want, got)
	got.Value[3] = 'Y'
	requireSame(t, want, get(t, s, want.Namespace, "drinks"))

	timed := put(t, s, want.Namespace, "timed", `{}`, time.Hour)
	assert.True(t, timed.Expires.Equal(timed.Updated.Add(time.Hour)), "expires %s = updated %s + ttl", timed.Expires, timed.Updated)
	requireSame(t, timed, get(t, s, want.Namespace, "timed"))
}

func testReplace(t *testing.T, s memory.Store) {
	ns := []string{"users", "ann"}
	first := put(t, s, ns, "k", `{"v":1}`, time.Hour)
	time.Sleep(2 * time.Millisecond)
	second := put(t, s, ns, "k", `{"v":2}`, 0)
	assert.True(t, second.Created.Equal(first.Created), "a replaced item keeps its Created")
	assert.True(t, second.Updated.After(first.Updated), "Updated is the last Put's time")
	assert.True(t, second.Expires.IsZero(), "each Put sets its own TTL: none now")
	got := get(t, s, ns, "k")
	requireSame(t, second, got)
	assert.JSONEq(t, `{"v":2}`, string(got.Value))
}

func testIsolation(t *testing.T, s memory.Store) {
	// Namespaces that share a beginning, and one whose part has a space
	// (sorting between "a" and "ab" byte-wise), keep their own items.
	spaces := [][]string{{"a"}, {"a", "b"}, {"ab"}, {"a b"}, {"a", "b", "c"}}
	for i, ns := range spaces {
		put(t, s, ns, "k", fmt.Sprintf(`{"i":%d}`, i), 0)
	}
	require.NoError(t, s.Delete(ctx(t), []string{"a", "b"}, "k"))
	for i, ns := range spaces {
		got, err := s.Get(ctx(t), ns, "k")
		if i == 1 {
			assert.ErrorIs(t, err, memory.ErrNotFound)
			continue
		}
		require.NoError(t, err, "%q", ns)
		assert.Equal(t, fmt.Sprintf(`{"i":%d}`, i), string(got.Value), "%q", ns)
	}
}

func testDelete(t *testing.T, s memory.Store) {
	ns := []string{"users", "ann"}
	put(t, s, ns, "a", `{}`, 0)
	put(t, s, ns, "b", `{}`, time.Hour)
	require.NoError(t, s.Delete(ctx(t), ns, "a"))
	require.NoError(t, s.Delete(ctx(t), ns, "b"), "an item with a TTL")
	require.NoError(t, s.Delete(ctx(t), ns, "a"), "a missing item is no error")
	require.NoError(t, s.Delete(ctx(t), []string{"nobody"}, "a"), "nor a missing namespace")
	_, err := s.Get(ctx(t), ns, "a")
	require.ErrorIs(t, err, memory.ErrNotFound)
	assert.ErrorContains(t, err, "get:")
	assert.Empty(t, search(t, s, memory.Query{}))
	n, err := s.Purge(ctx(t))
	require.NoError(t, err)
	assert.Zero(t, n, "a deleted item with a TTL is not purged again")
}

func testConcurrent(t *testing.T, s memory.Store) {
	const writers, each = 6, 15
	var wg sync.WaitGroup
	errs := make(chan error, writers*each*2)
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				ns := []string{"w", fmt.Sprint(w)}
				if _, err := s.Put(ctx(t), ns, fmt.Sprint(i), json.RawMessage(`{}`), time.Hour); err != nil {
					errs <- err
				}
				if _, err := s.Put(ctx(t), []string{"shared"}, "k", json.RawMessage(fmt.Sprintf(`{"w":%d}`, w)), 0); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	all := search(t, s, memory.Query{Prefix: []string{"w"}, Limit: memory.MaxLimit})
	assert.Len(t, all, writers*each, "no Put is lost")
	shared := get(t, s, []string{"shared"}, "k")
	assert.Regexp(t, `^\{"w":\d\}$`, string(shared.Value), "one writer's value, whole")
}
