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
	t.Run("a list with states on a server that has not run the read script", func(t *testing.T) {
		ctx := t.Context()
		s := open(t, url)
		defer func() { _ = s.Close() }()
		opt, err := redis.ParseURL(url)
		require.NoError(t, err)
		admin := redis.NewClient(opt)
		defer func() { _ = admin.Close() }()
		_, err = s.Put(ctx, checkpoint.Checkpoint{Thread: "fresh", State: []byte(`{"n":1}`)})
		require.NoError(t, err)
		require.NoError(t, admin.ScriptFlush(ctx).Err())
		got, err := s.List(ctx, "fresh", checkpoint.ListOptions{Limit: 5})
		require.NoError(t, err, "a pipeline cannot fall back from EVALSHA to EVAL by itself")
		require.Len(t, got, 1)
		require.JSONEq(t, `{"n":1}`, string(got[0].State))
	})
	t.Run("a checkpoint written before pieces", func(t *testing.T) {
		ctx := t.Context()
		s := open(t, url)
		defer func() { _ = s.Close() }()
		opt, err := redis.ParseURL(url)
		require.NoError(t, err)
		admin := redis.NewClient(opt)
		defer func() { _ = admin.Close() }()
		const key = "sgrgraph:checkpoint:t:1:t"
		id := "0000000000000000001-aaaaaaaa"
		require.NoError(t, admin.HSet(ctx, key+":cp:"+id, "header", `{"next":["model"],"metadata":{"step":0,"node":"model","source":"loop","time":"2025-01-02T03:00:00Z","version":1}}`,
			"state", `{"messages":["before pieces"],"count":0}`, "time", "1735786800000000000").Err())
		require.NoError(t, admin.ZAdd(ctx, key+":order", redis.Z{Score: 1, Member: id}).Err())
		require.NoError(t, admin.SAdd(ctx, "sgrgraph:checkpoint:threads", "t").Err())

		got, err := s.Latest(ctx, "t")
		require.NoError(t, err)
		require.Equal(t, `{"messages":["before pieces"],"count":0}`, string(got.State))
		require.Equal(t, []string{"model"}, got.Next)
		next, err := s.Put(ctx, checkpoint.Checkpoint{Thread: "t", Parent: id, State: []byte(`{"messages":["after"],"count":1}`)})
		require.NoError(t, err)
		require.Equal(t, "0000000000000000002", next.ID[:19], "the sequence goes on")
		list, err := s.List(ctx, "t", checkpoint.ListOptions{})
		require.NoError(t, err)
		require.Len(t, list, 2)
		require.Equal(t, `{"messages":["after"],"count":1}`, string(list[0].State))
		require.Equal(t, `{"messages":["before pieces"],"count":0}`, string(list[1].State))
		n, err := s.Prune(ctx, "t", checkpoint.Retention{KeepLast: 1})
		require.NoError(t, err)
		require.Equal(t, 1, n)
		require.NoError(t, s.Delete(ctx, "t"))
		keys, err := admin.Keys(ctx, "sgrgraph:checkpoint:*").Result()
		require.NoError(t, err)
		require.Empty(t, keys, "nothing of the thread is left")
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
