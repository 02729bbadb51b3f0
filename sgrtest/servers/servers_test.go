package servers_test

import (
	"net"
	"net/url"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/sgrtest/servers"
)

func TestServers(t *testing.T) {
	cases := []struct {
		name  string
		start func(testing.TB) string
		query func(t *testing.T, u string)
	}{
		{"redis", servers.Redis, func(t *testing.T, u string) {
			opt, err := redis.ParseURL(u)
			require.NoError(t, err)
			c := redis.NewClient(opt)
			defer func() { _ = c.Close() }()
			require.NoError(t, c.Set(t.Context(), "k", "v", 0).Err())
			assert.Equal(t, "v", c.Get(t.Context(), "k").Val())
		}},
		{"postgres", servers.Postgres, func(t *testing.T, u string) {
			conn, err := pgx.Connect(t.Context(), u)
			require.NoError(t, err)
			defer func() { _ = conn.Close(t.Context()) }()
			var n int
			require.NoError(t, conn.QueryRow(t.Context(), "SELECT 1 + 1").Scan(&n))
			assert.Equal(t, 2, n)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var addr string
			answered := t.Run("answers", func(t *testing.T) {
				u := c.start(t)
				parsed, err := url.Parse(u)
				require.NoError(t, err)
				addr = parsed.Host
				c.query(t, u)
			})
			if !answered {
				return // the subtest said why
			}
			conn, err := net.DialTimeout("tcp", addr, time.Second)
			if err == nil {
				_ = conn.Close()
			}
			assert.Error(t, err, "the server stops when its test ends")
		})
	}
}
