package postgres_test

import (
	"context"
	"fmt"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/checkpoint/checkpointtest"
	"github.com/sgrgraph/sgrgraph/checkpoint/postgres"
	"github.com/sgrgraph/sgrgraph/sgrtest/servers"
)

// databases hands out an empty database per call on one server, so every
// conformance subtest starts clean without starting a server of its own.
type databases struct {
	server string
	n      atomic.Int32
}

func (d *databases) open(tb testing.TB) checkpoint.Store {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	name := fmt.Sprintf("checkpoints_%d", d.n.Add(1))
	admin, err := pgx.Connect(ctx, d.server)
	require.NoError(tb, err)
	_, err = admin.Exec(ctx, "CREATE DATABASE "+name)
	_ = admin.Close(ctx)
	require.NoError(tb, err)

	u, err := url.Parse(d.server)
	require.NoError(tb, err)
	u.Path = "/" + name
	s, err := postgres.Open(ctx, u.String())
	require.NoError(tb, err)
	return s
}

func TestConformance(t *testing.T) {
	d := &databases{server: servers.Postgres(t)}
	checkpointtest.Run(t, func(t *testing.T) checkpoint.Store { return d.open(t) })
	// Two pools on one database stand for two replicas.
	checkpointtest.RunShared(t, func(t *testing.T) (checkpoint.Store, checkpoint.Store) {
		first := d.open(t)
		u, err := url.Parse(d.server)
		require.NoError(t, err)
		u.Path = fmt.Sprintf("/checkpoints_%d", d.n.Load())
		second, err := postgres.Open(t.Context(), u.String())
		require.NoError(t, err)
		return first, second
	})
	t.Run("open twice keeps the table", func(t *testing.T) {
		first := d.open(t)
		defer func() { _ = first.Close() }()
		cp, err := first.Put(t.Context(), checkpoint.Checkpoint{Thread: "t", State: []byte(`{}`)})
		require.NoError(t, err)
		u, _ := url.Parse(d.server)
		u.Path = fmt.Sprintf("/checkpoints_%d", d.n.Load())
		second, err := postgres.Open(t.Context(), u.String())
		require.NoError(t, err)
		defer func() { _ = second.Close() }()
		got, err := second.Get(t.Context(), "t", cp.ID)
		require.NoError(t, err)
		require.Equal(t, cp.ID, got.ID)
	})
	t.Run("unreachable server", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
		defer cancel()
		_, err := postgres.Open(ctx, "postgres://postgres@127.0.0.1:1/postgres?sslmode=disable")
		require.ErrorContains(t, err, "checkpoint/postgres: open")
	})
}

func BenchmarkSaveLoad(b *testing.B) {
	d := &databases{server: servers.Postgres(b)}
	s := d.open(b)
	b.Cleanup(func() { _ = s.Close() })
	checkpointtest.BenchSaveLoad(b, s)
}
