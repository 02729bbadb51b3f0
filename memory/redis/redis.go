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
	"sync"
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
	client    *redis.Client
	closeOnce sync.Once
	closeErr  error
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
	return &store{client: client}, nil
}

// Close closes the connections; closing again is no error.
func (s *store) Close() error {
	s.closeOnce.Do(func() {
		if err := s.client.Close(); err != nil {
			s.closeErr = fmt.Errorf("memory/redis: close: %w", err)
		}
	})
	return s.closeErr
}

// member names an item in the sorted sets: its encoded namespace, then its
// key. A key holds no control character, so the last rules.Sep ends the
// namespace.
func member(namespace []string, key string) string { return rules.Encode(namespace) + key }

func split(m string) ([]string, string) {
	i := strings.LastIndex(m, rules.Sep) + 1
	return rules.Decode(m[:i]), m[i:]
}

// call bounds one store call: the default timeout when ctx has none, and
// no work at all once ctx is done.
func call(ctx context.Context, op string) (context.Context, context.CancelFunc, error) {
	ctx, cancel := rules.Context(ctx)
	if err := ctx.Err(); err != nil {
		cancel()
		return nil, nil, wrap(op, err)
	}
	return ctx, cancel, nil
}

// wrap names the store and the operation in err.
func wrap(op string, err error) error {
	return fmt.Errorf("memory/redis: %s: %w", op, err)
}

// The expiry set is scored in milliseconds, which a Lua number holds
// exactly: an item's score is its expiry rounded up, and a purge at now
// takes the scores up to now rounded down, so it never takes a live item.
func ceilMS(t time.Time) int64  { return (t.UnixNano() + 999_999) / 1_000_000 }
func floorMS(t time.Time) int64 { return t.UnixNano() / 1_000_000 }
