package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/memory"
	"github.com/sgrgraph/sgrgraph/memory/memorytest"
	"github.com/sgrgraph/sgrgraph/memory/postgres"
	"github.com/sgrgraph/sgrgraph/sgrtest/servers"
)

// databases hands out an empty database per call on one server, so every
// conformance subtest starts clean without starting a server of its own.
type databases struct {
	server string
	n      atomic.Int32
}

// url returns the URL of the n-th database.
func (d *databases) url(t testing.TB, n int32) string {
	u, err := url.Parse(d.server)
	require.NoError(t, err)
	u.Path = fmt.Sprintf("/memories_%d", n)
	return u.String()
}

func (d *databases) open(t testing.TB) memory.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	n := d.n.Add(1)
	admin, err := pgx.Connect(ctx, d.server)
	require.NoError(t, err)
	_, err = admin.Exec(ctx, fmt.Sprintf("CREATE DATABASE memories_%d", n))
	_ = admin.Close(ctx)
	require.NoError(t, err)
	s, err := postgres.Open(ctx, d.url(t, n))
	require.NoError(t, err)
	return s
}

func TestConformance(t *testing.T) {
	d := &databases{server: servers.Postgres(t)}
	memorytest.Run(t, func(t *testing.T) memory.Store { return d.open(t) })
	// Two pools on one database stand for two replicas: opening again
	// keeps the table, and an item one writes the other reads.
	t.Run("two stores share a database", func(t *testing.T) {
		first := d.open(t)
		defer func() { _ = first.Close() }()
		second, err := postgres.Open(t.Context(), d.url(t, d.n.Load()))
		require.NoError(t, err)
		defer func() { _ = second.Close() }()
		_, err = first.Put(t.Context(), []string{"users", "ann"}, "drink", json.RawMessage(`{"drink":"tea"}`), 0)
		require.NoError(t, err)
		got, err := second.Get(t.Context(), []string{"users", "ann"}, "drink")
		require.NoError(t, err)
		require.Equal(t, `{"drink":"tea"}`, string(got.Value))
	})
	t.Run("unreachable server", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
		defer cancel()
		_, err := postgres.Open(ctx, "postgres://postgres@127.0.0.1:1/postgres?sslmode=disable")
		require.ErrorContains(t, err, "memory/postgres: open")
	})
}
