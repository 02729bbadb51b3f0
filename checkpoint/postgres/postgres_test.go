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
	t.Run("a table written before pieces", func(t *testing.T) {
		ctx := t.Context()
		name := fmt.Sprintf("checkpoints_%d", d.n.Add(1))
		admin, err := pgx.Connect(ctx, d.server)
		require.NoError(t, err)
		_, err = admin.Exec(ctx, "CREATE DATABASE "+name)
		_ = admin.Close(ctx)
		require.NoError(t, err)
		u, err := url.Parse(d.server)
		require.NoError(t, err)
		u.Path = "/" + name
		old, err := pgx.Connect(ctx, u.String())
		require.NoError(t, err)
		_, err = old.Exec(ctx, oldSchema)
		_ = old.Close(ctx)
		require.NoError(t, err)

		s, err := postgres.Open(ctx, u.String())
		require.NoError(t, err)
		defer func() { _ = s.Close() }()
		got, err := s.Get(ctx, "t", "0000000000000000001-aaaaaaaa")
		require.NoError(t, err)
		require.Equal(t, `{"messages":["before pieces"],"count":0}`, string(got.State))
		require.Equal(t, []string{"model"}, got.Next)
		next, err := s.Put(ctx, checkpoint.Checkpoint{Thread: "t", Parent: got.ID, State: []byte(`{"messages":["after"],"count":1}`)})
		require.NoError(t, err)
		require.Equal(t, "0000000000000000002", next.ID[:19], "the sequence goes on")
		list, err := s.List(ctx, "t", checkpoint.ListOptions{})
		require.NoError(t, err)
		require.Len(t, list, 2)
		require.Equal(t, `{"messages":["after"],"count":1}`, string(list[0].State))
		require.Equal(t, `{"messages":["before pieces"],"count":0}`, string(list[1].State))
		n, err := s.Prune(ctx, "", checkpoint.Retention{KeepLast: 1})
		require.NoError(t, err)
		require.Equal(t, 1, n)
		require.NoError(t, s.Delete(ctx, "t"))
		st, err := s.(checkpoint.Meter).Stored(ctx, "")
		require.NoError(t, err)
		require.Equal(t, checkpoint.Stored{}, st)
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

// oldSchema is the table as databases written before pieces have it.
const oldSchema = `
CREATE TABLE sgrgraph_checkpoints (
	thread  text   NOT NULL,
	id      text   NOT NULL,
	seq     bigint NOT NULL,
	created bigint NOT NULL,
	header  bytea  NOT NULL,
	state   bytea  NOT NULL,
	PRIMARY KEY (thread, id)
);
CREATE UNIQUE INDEX sgrgraph_checkpoints_order ON sgrgraph_checkpoints (thread, seq);
INSERT INTO sgrgraph_checkpoints VALUES ('t', '0000000000000000001-aaaaaaaa', 1, 1735786800000000000,
	convert_to('{"next":["model"],"metadata":{"step":0,"node":"model","source":"loop","time":"2025-01-02T03:00:00Z","version":1}}', 'UTF8'),
	convert_to('{"messages":["before pieces"],"count":0}', 'UTF8'));
`
