package memorytest

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/memory"
)

// short is the TTL of items a test waits out.
const short = 150 * time.Millisecond

// waitOut sleeps until items put with ttl before now have expired.
func waitOut(ttl time.Duration) { time.Sleep(ttl + 30*time.Millisecond) }

func testExpiredHidden(t *testing.T, s memory.Store) {
	a, b := []string{"u", "a"}, []string{"u", "b"}
	put(t, s, a, "short", `{"kind":"x","text":"green tea"}`, short)
	put(t, s, a, "long", `{"kind":"y"}`, time.Hour)
	put(t, s, a, "forever", `{"kind":"y"}`, 0)
	put(t, s, b, "short", `{"kind":"x"}`, short)
	waitOut(short)

	_, err := s.Get(ctx(t), a, "short")
	assert.ErrorIs(t, err, memory.ErrNotFound)
	assert.ElementsMatch(t, []string{"long", "forever"}, keys(search(t, s, memory.Query{Prefix: []string{"u"}})))
	assert.Empty(t, search(t, s, memory.Query{Text: "tea"}))
	assert.Empty(t, search(t, s, memory.Query{Filter: map[string]any{"kind": "x"}}))
	spaces, err := s.List(ctx(t), memory.ListOptions{})
	require.NoError(t, err)
	assert.Equal(t, [][]string{a}, spaces, "a namespace of expired items only is not listed")
}

func testPurge(t *testing.T, s memory.Store) {
	ns := []string{"p"}
	for i := range 3 {
		put(t, s, ns, fmt.Sprint(i), `{}`, short)
	}
	put(t, s, ns, "forever", `{}`, 0)
	waitOut(short)
	n, err := s.Purge(ctx(t))
	require.NoError(t, err)
	assert.Equal(t, 3, n)
	n, err = s.Purge(ctx(t))
	require.NoError(t, err)
	assert.Zero(t, n)
	get(t, s, ns, "forever")

	// Every Put purges up to 100 expired items on its way. All expire at
	// one deadline, after every Put of the setup, so none purges another.
	deadline := time.Now().Add(2 * time.Second)
	for i := range 105 {
		_, err := s.Put(ctx(t), []string{"q", fmt.Sprint(i % 3)}, fmt.Sprint(i), json.RawMessage(`{}`), time.Until(deadline))
		require.NoError(t, err)
	}
	require.True(t, time.Now().Before(deadline), "the setup took longer than the TTL")
	time.Sleep(time.Until(deadline) + 20*time.Millisecond)
	put(t, s, ns, "trigger", `{}`, 0)
	n, err = s.Purge(ctx(t))
	require.NoError(t, err)
	assert.Equal(t, 5, n, "the Put purged 100 of the 105")
	assert.Len(t, search(t, s, memory.Query{Limit: memory.MaxLimit}), 2)
}

func testExpiredReplaced(t *testing.T, s memory.Store) {
	ns := []string{"u"}
	first := put(t, s, ns, "k", `{"v":1}`, short)
	waitOut(short)
	second := put(t, s, ns, "k", `{"v":2}`, 0)
	assert.True(t, second.Created.After(first.Created), "an expired item does not lend its Created")
	assert.True(t, second.Created.Equal(second.Updated))
	requireSame(t, second, get(t, s, ns, "k"))
}

func testContext(t *testing.T, s memory.Store) {
	put(t, s, []string{"u"}, "k", `{}`, 0)
	canceled, cancel := context.WithCancel(t.Context())
	cancel()
	expired, stop := context.WithDeadline(t.Context(), time.Now().Add(-time.Second))
	defer stop()
	for _, c := range []struct {
		ctx  context.Context
		want error
	}{{canceled, context.Canceled}, {expired, context.DeadlineExceeded}} {
		ns := []string{"u"}
		calls := map[string]error{}
		_, calls["put"] = s.Put(c.ctx, ns, "new", json.RawMessage(`{}`), 0)
		_, calls["get"] = s.Get(c.ctx, ns, "k")
		calls["delete"] = s.Delete(c.ctx, ns, "k")
		_, calls["list"] = s.List(c.ctx, memory.ListOptions{})
		_, calls["search"] = s.Search(c.ctx, memory.Query{})
		_, calls["purge"] = s.Purge(c.ctx)
		for op, err := range calls {
			assert.ErrorIs(t, err, c.want, op)
			assert.ErrorContains(t, err, op+":")
		}
	}
	assert.Equal(t, []string{"k"}, keys(search(t, s, memory.Query{})), "nothing was written or deleted")
}
