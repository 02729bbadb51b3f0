package postgres_test

import (
	"context"
	"fmt"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/graph"
	"github.com/sgrgraph/sgrgraph/graph/cachestore/cachetest"
	"github.com/sgrgraph/sgrgraph/graph/cachestore/postgres"
	"github.com/sgrgraph/sgrgraph/sgrtest/servers"
)

// databases hands out an empty database per call on one server, so every
// conformance subtest starts clean without starting a server of its own.
type databases struct {
	server string
	n      atomic.Int32
}

func (d *databases) url(t testing.TB, n int32) string {
	u, err := url.Parse(d.server)
	require.NoError(t, err)
	u.Path = fmt.Sprintf("/cache_%d", n)
	return u.String()
}

func (d *databases) open(t *testing.T, maxEntries int) *postgres.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	n := d.n.Add(1)
	admin, err := pgx.Connect(ctx, d.server)
	require.NoError(t, err)
	_, err = admin.Exec(ctx, fmt.Sprintf("CREATE DATABASE cache_%d", n))
	_ = admin.Close(ctx)
	require.NoError(t, err)
	s, err := postgres.Open(ctx, d.url(t, n), maxEntries)
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, s.Close()) })
	return s
}

func TestConformance(t *testing.T) {
	d := &databases{server: servers.Postgres(t)}
	cachetest.RunExternal(t, func(t *testing.T, maxEntries int) graph.CacheStore { return d.open(t, maxEntries) })
	// Two pools on one database stand for two replicas: opening again
	// keeps the table, and what one sets the other gets.
	t.Run("two stores share a database", func(t *testing.T) {
		first := d.open(t, 0)
		second, err := postgres.Open(t.Context(), d.url(t, d.n.Load()), 0)
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
		_, err := postgres.Open(ctx, "postgres://postgres@127.0.0.1:1/postgres?sslmode=disable", 0)
		require.ErrorContains(t, err, "cachestore/postgres: open")
	})
}
