// Package redis is a graph.CacheStore in Redis, on go-redis: node caches
// shared by many processes, for programs that already run Redis.
//
// Each entry is one string key that Redis itself expires (PX). A counter
// numbers the Sets and a sorted set orders the keys by the Set that wrote
// them, so a Set, a Lua script, also removes the entries of Sets more than
// MaxEntries ago (up to 1000 a Set). The script names keys it is not given,
// so Redis Cluster is not supported.
package redis

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/sgrgraph/sgrgraph/graph/cachestore"
	"github.com/sgrgraph/sgrgraph/internal/storeopen"
)

// The keys of the store: see the package doc.
const (
	prefix      = "sgrgraph:cache:"
	entryPrefix = prefix + "e:" // then the entry's key
	seqKey      = prefix + "seq"
	orderKey    = prefix + "order"
)

// setScript sets KEYS[1] to ARGV[1] for ARGV[2] ms (0: no expiry), orders
// it by the next Set number under its name ARGV[4], and removes the
// entries of Sets more than ARGV[3] ago.
var setScript = redis.NewScript(`
local seq = redis.call('INCR', KEYS[2])
if tonumber(ARGV[2]) > 0 then
	redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
else
	redis.call('SET', KEYS[1], ARGV[1])
end
redis.call('ZADD', KEYS[3], seq, ARGV[4])
local old = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', seq - tonumber(ARGV[3]), 'LIMIT', 0, 1000)
for _, m in ipairs(old) do
	redis.call('DEL', ARGV[5] .. m)
end
if #old > 0 then
	redis.call('ZREM', KEYS[3], unpack(old))
end
return seq`)

// Store is the cache in one Redis database: cachestore's rules in front of
// this package's driver. It is safe for concurrent use. A TTL under a
// millisecond counts as one.
type Store = cachestore.Store

// driver keeps the entries in the server.
type driver struct {
	client *redis.Client
	max    int
}

// Open connects to the server at url (redis://[user:password@]host:port/db,
// or rediss:// for TLS), checks that it answers, and keeps the entries of
// the last maxEntries Sets (cachestore.DefaultMaxEntries when it is less
// than 1). The store honours the deadlines of the contexts it is given.
func Open(ctx context.Context, url string, maxEntries int) (*Store, error) {
	client, err := storeopen.Redis(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("cachestore/redis: open: %w", err)
	}
	return cachestore.NewStore("redis", &driver{client: client, max: cachestore.Entries(maxEntries)}), nil
}

func (d *driver) Get(ctx context.Context, key string) ([]byte, bool, error) {
	value, err := d.client.Get(ctx, entryPrefix+key).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, false, nil
	}
	return value, err == nil, err
}

// Set counts a TTL under a millisecond as one.
func (d *driver) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	ms := ttl.Milliseconds()
	if ttl > 0 && ms == 0 {
		ms = 1
	}
	keys := []string{entryPrefix + key, seqKey, orderKey}
	return setScript.Run(ctx, d.client, keys, value, ms, d.max, key, entryPrefix).Err()
}

func (d *driver) Close() error { return d.client.Close() }
