package redis_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/memory"
	"github.com/sgrgraph/sgrgraph/memory/memorytest"
	memoryredis "github.com/sgrgraph/sgrgraph/memory/redis"
	"github.com/sgrgraph/sgrgraph/sgrtest/servers"
)

// open empties the server's database and opens a store on it: one server
// serves every subtest, which run one after another.
func open(t testing.TB, url string) memory.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	opt, err := redis.ParseURL(url)
	require.NoError(t, err)
	admin := redis.NewClient(opt)
	defer func() { _ = admin.Close() }()
	require.NoError(t, admin.FlushDB(ctx).Err())
	s, err := memoryredis.Open(ctx, url)
	require.NoError(t, err)
	return s
}

func TestConformance(t *testing.T) {
	url := servers.Redis(t)
	memorytest.Run(t, func(t *testing.T) memory.Store { return open(t, url) })
	t.Run("two clients share a server", func(t *testing.T) {
		first := open(t, url)
		defer func() { _ = first.Close() }()
		second, err := memoryredis.Open(t.Context(), url)
		require.NoError(t, err)
		defer func() { _ = second.Close() }()
		_, err = first.Put(t.Context(), []string{"users", "ann"}, "drink", json.RawMessage(`{"drink":"tea"}`), 0)
		require.NoError(t, err)
		got, err := second.Get(t.Context(), []string{"users", "ann"}, "drink")
		require.NoError(t, err)
		require.Equal(t, `{"drink":"tea"}`, string(got.Value))
	})
	t.Run("more items than a scan chunk", func(t *testing.T) {
		s := open(t, url)
		defer func() { _ = s.Close() }()
		for i := range 1200 {
			_, err := s.Put(t.Context(), []string{"many", string(rune('a' + i%3))}, string(rune(0x4e00+i)), json.RawMessage(`{}`), 0)
			require.NoError(t, err)
		}
		found, err := s.Search(t.Context(), memory.Query{Prefix: []string{"many"}, Limit: memory.MaxLimit})
		require.NoError(t, err)
		require.Len(t, found, memory.MaxLimit)
		spaces, err := s.List(t.Context(), memory.ListOptions{})
		require.NoError(t, err)
		require.Equal(t, [][]string{{"many", "a"}, {"many", "b"}, {"many", "c"}}, spaces)
	})
	t.Run("unreachable server", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
		defer cancel()
		_, err := memoryredis.Open(ctx, "redis://127.0.0.1:1/0")
		require.ErrorContains(t, err, "memory/redis: open")
	})
}
