package redis_test

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/checkpoint/checkpointtest"
	checkpointredis "github.com/sgrgraph/sgrgraph/checkpoint/redis"
	"github.com/sgrgraph/sgrgraph/sgrtest/servers"
)

// open empties the server's database and opens a store on it: one server
// serves every subtest, which run one after another.
func open(tb testing.TB, url string) checkpoint.Store {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	opt, err := redis.ParseURL(url)
	require.NoError(tb, err)
	admin := redis.NewClient(opt)
	defer func() { _ = admin.Close() }()
	require.NoError(tb, admin.FlushDB(ctx).Err())
	s, err := checkpointredis.Open(ctx, url)
	require.NoError(tb, err)
	return s
}

func TestConformance(t *testing.T) {
	url := servers.Redis(t)
	checkpointtest.Run(t, func(t *testing.T) checkpoint.Store { return open(t, url) })
	// Two clients of one server stand for two replicas.
	checkpointtest.RunShared(t, func(t *testing.T) (checkpoint.Store, checkpoint.Store) {
		first := open(t, url)
		second, err := checkpointredis.Open(t.Context(), url)
		require.NoError(t, err)
		return first, second
	})
	t.Run("unreachable server", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
		defer cancel()
		_, err := checkpointredis.Open(ctx, "redis://127.0.0.1:1/0")
		require.ErrorContains(t, err, "checkpoint/redis: open")
	})
}

func BenchmarkSaveLoad(b *testing.B) {
	s := open(b, servers.Redis(b))
	b.Cleanup(func() { _ = s.Close() })
	checkpointtest.BenchSaveLoad(b, s)
}
