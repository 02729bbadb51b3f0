package redis_test

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/graph"
	"github.com/sgrgraph/sgrgraph/graph/cachestore/cachetest"
	cacheredis "github.com/sgrgraph/sgrgraph/graph/cachestore/redis"
	"github.com/sgrgraph/sgrgraph/sgrtest/servers"
)

// open empties the server's database and opens a store on it: one server
// serves every subtest, which run one after another.
func open(t *testing.T, url string, maxEntries int) *cacheredis.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	opt, err := redis.ParseURL(url)
	require.NoError(t, err)
	admin := redis.NewClient(opt)
	defer func() { _ = admin.Close() }()
	require.NoError(t, admin.FlushDB(ctx).Err())
	s, err := cacheredis.Open(ctx, url, maxEntries)
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, s.Close()) })
	return s
}

func TestConformance(t *testing.T) {
	url := servers.Redis(t)
	cachetest.RunExternal(t, func(t *testing.T, maxEntries int) graph.CacheStore { return open(t, url, maxEntries) })
	t.Run("two clients share a server", func(t *testing.T) {
		first := open(t, url, 0)
		second, err := cacheredis.Open(t.Context(), url, 0)
		require.NoError(t, err)
		defer func() { _ = second.Close() }()
		require.NoError(t, first.Set(t.Context(), "k", []byte("v"), time.Hour))
		got, ok, err := second.Get(t.Context(), "k")
		require.NoError(t, err)
		require.True(t, ok)
		require.Equal(t, "v", string(got))
	})
	t.Run("unreachable server", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
		defer cancel()
		_, err := cacheredis.Open(ctx, "redis://127.0.0.1:1/0", 0)
		require.ErrorContains(t, err, "cachestore/redis: open")
	})
}
