// Package redis is a memory.Store in Redis, on go-redis: fast shared
// long-term memory for programs that already run Redis (with persistence
// configured as durable as they need).
//
// Each item is one hash (value, created, updated, expires). One sorted set
// holds every item by its encoded namespace and key with score 0, so a
// namespace prefix is a ZRANGEBYLEX range; another scores the items that
// expire by when, for the purge. An item's hash also expires in Redis
// itself (PEXPIREAT), which frees its memory even before a purge. Writes run
// as Lua scripts, so a Put, its purge and a Delete are atomic. The keys of
// one store are not in one hash slot, so Redis Cluster is not supported.
package redis

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/sgrgraph/sgrgraph/memory"
	"github.com/sgrgraph/sgrgraph/memory/internal/rules"
)

// The keys of the store: see the package doc.
const (
	prefix     = "sgrgraph:memory:"
	itemPrefix = prefix + "item:" // then the member
	indexKey   = prefix + "index"
	expiresKey = prefix + "expires"
)

type store struct {
	client *redis.Client
}

// Open connects to the server at url (redis://[user:password@]host:port/db,
// or rediss:// for TLS) and checks that it answers.
func Open(ctx context.Context, url string) (memory.Store, error) {
	opt, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("memory/redis: open: %w", err)
	}
	opt.ContextTimeoutEnabled = true // without it go-redis ignores ctx deadlines on the socket
	client := redis.NewClient(opt)
	ctx, cancel := rules.Context(ctx)
	defer cancel()
	if err := client.Ping(ctx).Err(); err != nil {
		_ = client.Close()
		return nil, fmt.Errorf("memory/redis: open %s: %w", opt.Addr, err)
	}
	return memory.NewStore("redis", &store{client: client}), nil
}

func (s *store) Close() error { return s.client.Close() }

// member names an item in the sorted sets: its encoded namespace, then its
// key. A key holds no control character, so the last rules.Sep ends the
// namespace.
func member(namespace []string, key string) string { return rules.Encode(namespace) + key }

func split(m string) ([]string, string) {
	i := strings.LastIndex(m, rules.Sep) + 1
	return rules.Decode(m[:i]), m[i:]
}

// The expiry set is scored in milliseconds, which a Lua number holds
// exactly: an item's score is its expiry rounded up, and a purge at now
// takes the scores up to now rounded down, so it never takes a live item.
func ceilMS(t time.Time) int64  { return (t.UnixNano() + 999_999) / 1_000_000 }
func floorMS(t time.Time) int64 { return t.UnixNano() / 1_000_000 }
