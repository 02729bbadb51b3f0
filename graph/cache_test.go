package graph

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// brokenStore fails every call.
type brokenStore struct{}

func (brokenStore) Get(context.Context, string) ([]byte, bool, error) {
	return nil, false, errors.New("store down")
}
func (brokenStore) Set(context.Context, string, []byte, time.Duration) error { return nil }

func TestCache(t *testing.T) {
	calls := 0
	// look sets Best from Item and names its next node; it counts its calls.
	look := func(ctx context.Context, s *state) (*state, error) {
		calls++
		s.Best = s.Item * 10
		s.Tags = nil // cleared: a hit must clear it too
		Goto(ctx, "b")
		return s, nil
	}
	byItem := CachePolicy[*state]{Key: func(s *state) string { return fmt.Sprint(s.Item) }}
	clock := time.Unix(0, 0)
	for _, tc := range []struct {
		name   string
		policy CachePolicy[*state]
		store  func() CacheStore
		inputs []*state
		calls  int
		err    string
	}{
		{"the second run with the key hits", byItem, nil,
			[]*state{{Item: 1}, {Item: 1, Owner: "other"}}, 1, ""},
		{"another key misses", byItem, nil, []*state{{Item: 1}, {Item: 2}}, 2, ""},
		{"the default key is the whole state", CachePolicy[*state]{}, nil,
			[]*state{{Item: 1}, {Item: 1}, {Item: 1, Owner: "x"}}, 2, ""},
		{"an expired entry misses", CachePolicy[*state]{Key: byItem.Key, TTL: time.Minute}, func() CacheStore {
			c := NewMemoryCache(10)
			c.now = func() time.Time { clock = clock.Add(time.Minute); return clock }
			return c
		}, []*state{{Item: 1}, {Item: 1}}, 2, ""},
		{"a store that fails fails the node", byItem, func() CacheStore { return brokenStore{} },
			[]*state{{Item: 1}}, 0, `node "look": cache: store down`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls = 0
			var opts []CompileOption
			if tc.store != nil {
				opts = append(opts, WithCacheStore(tc.store()))
			}
			r, err := New[*state]("g").AddNode("look", look, WithCache(tc.policy), WithDestinations("b")).
				AddNode("b", visit("b")).AddEdge(START, "look").AddEdge("b", END).
				Compile(context.Background(), opts...)
			require.NoError(t, err)
			for _, in := range tc.inputs {
				owner := in.Owner
				in.Tags = []string{"x"} // the node clears it: the update says so
				out, err := r.Invoke(context.Background(), in)
				if tc.err != "" {
					require.Error(t, err)
					assert.Contains(t, err.Error(), tc.err)
					return
				}
				require.NoError(t, err)
				assert.Equal(t, in.Item*10, out.Best, "the update applies")
				assert.Empty(t, out.Tags, "a cleared field is cleared")
				assert.Equal(t, owner, out.Owner, "a field the node left is the input's")
				assert.Equal(t, "b", strings.Join(out.Path, " "), "the cached Goto is replayed")
			}
			assert.Equal(t, tc.calls, calls)
		})
	}
}

func TestCacheCompileErrors(t *testing.T) {
	_, err := New[*state]("g").AddNode("a", visit("a"), WithCache(CachePolicy[string]{})).
		AddEdge(START, "a").AddEdge("a", END).Compile(context.Background())
	require.Error(t, err)
	assert.Contains(t, err.Error(), `node "a": cache policy graph.CachePolicy[string] is not over the state type *graph.state`)
}

func TestMemoryCacheBound(t *testing.T) {
	ctx := context.Background()
	c := NewMemoryCache(2)
	require.NoError(t, c.Set(ctx, "a", []byte("1"), 0))
	require.NoError(t, c.Set(ctx, "b", []byte("2"), 0))
	_, ok, _ := c.Get(ctx, "a") // a is now the most recently used
	require.True(t, ok)
	require.NoError(t, c.Set(ctx, "c", []byte("3"), 0))
	assert.Equal(t, 2, c.Len())
	_, ok, _ = c.Get(ctx, "b")
	assert.False(t, ok, "the least recently used entry went")
	v, ok, _ := c.Get(ctx, "a")
	assert.True(t, ok)
	assert.Equal(t, "1", string(v))
}

func TestCacheOnSends(t *testing.T) {
	// the Sends of a cached node run at once, each through the cache, and
	// the Gotos of those runs, cached or not, add up.
	sends := func(_ context.Context, s *state) ([]Send[*state], error) {
		return []Send[*state]{{Key: "w", State: &state{Item: 1}}, {Key: "w", State: &state{Item: 2}}, {Key: "w", State: &state{Item: 1}}}, nil
	}
	work := func(ctx context.Context, s *state) (*state, error) {
		s.Count = s.Item
		Goto(ctx, fmt.Sprint("n", s.Item))
		return s, nil
	}
	r, err := New[*state]("g").AddNode("f", visit("f")).
		AddNode("w", work, WithCache(CachePolicy[*state]{Key: func(s *state) string { return fmt.Sprint(s.Item) }}), WithDestinations("n1", "n2")).
		AddNode("n1", visit("n1")).AddNode("n2", visit("n2")).AddNode("j", visit("j")).
		AddEdge(START, "f").AddConditionalEdges("f", BySend(sends), map[string]string{"w": "w"}).
		AddEdge("n1", "j").AddEdge("n2", "j").AddEdge("j", END).
		Compile(context.Background())
	require.NoError(t, err)
	for range 2 {
		out, err := r.Invoke(context.Background(), &state{})
		require.NoError(t, err)
		assert.Equal(t, "f n1 n2 j", strings.Join(out.Path, " "))
		assert.Equal(t, 4, out.Count)
	}
}
