// Package redis is a checkpoint.Store in Redis, on go-redis: fast shared
// threads for programs that already run Redis (with persistence configured
// as durable as they need).
//
// Each checkpoint is one hash (header, time, and the list of its state's
// pieces) that is never rewritten; a sorted set per thread orders its
// checkpoint IDs by their sequence number, and one set lists the threads. A
// thread's state pieces are the fields of one hash, and another hash counts
// the checkpoints listing each, so a checkpoint writes only the pieces its
// thread does not have yet. Writes run as Lua scripts, so a Put, a prune and a
// delete are atomic. A checkpoint written before pieces keeps its state whole
// in its hash and reads as before. The keys of one store are not in one hash
// slot, so Redis Cluster is not supported.
package redis

import (
	"context"
	"fmt"
	"strconv"
	"sync"

	"github.com/redis/go-redis/v9"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/checkpoint/internal/driven"
	"github.com/sgrgraph/sgrgraph/internal/storeopen"
)

// prefix starts every key of the store.
const prefix = "sgrgraph:checkpoint:"

// store is the driven.Driver that keeps checkpoints in the server.
type store struct {
	client  *redis.Client
	scripts scripts
	known   known // the pieces this process saw its threads keep
}

// Open connects to the server at url (redis://[user:password@]host:port/db,
// or rediss:// for TLS) and checks that it answers. The store honours the
// deadlines of the contexts it is given; pass ones with a timeout.
func Open(ctx context.Context, url string) (checkpoint.Store, error) {
	client, err := storeopen.Redis(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("checkpoint/redis: open: %w", err)
	}
	return driven.New("redis", &store{client: client, scripts: newScripts()}), nil
}

// Close closes the connections (driven.Store closes once).
func (s *store) Close() error { return s.client.Close() }

// keys names the keys of one thread. The thread's length goes first, so no
// thread name (which may contain ":") can reach into another thread's keys.
type keys struct {
	threads string // the set of all threads
	order   string // the thread's IDs, scored by sequence number
	cp      string // the prefix of the thread's checkpoint hashes, then the ID
	pieces  string // the thread's state pieces: hash → data
	refs    string // how many of the thread's checkpoints list each piece: hash → count
	lock    string // the thread's lease (TryLock): "token owner", expiring with it
}

func keysOf(thread string) keys {
	t := prefix + "t:" + strconv.Itoa(len(thread)) + ":" + thread
	return keys{threads: prefix + "threads", order: t + ":order", cp: t + ":cp:", pieces: t + ":pieces", refs: t + ":refs", lock: t + ":lock"}
}

func (k keys) list() []string { return []string{k.threads, k.order, k.cp, k.pieces, k.refs} }

// known remembers, for the threads this process wrote or read last, the
// pieces their newest checkpoint listed: a Put sends only the others, and
// the script that stores it checks the rest are there (when another
// process pruned them, the Put is sent again whole).
type known struct {
	mu      sync.Mutex
	threads map[string]map[string]bool
}

// knownThreads bounds known.
const knownThreads = 4096

func (k *known) set(thread string, manifest []string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.threads == nil {
		k.threads = map[string]map[string]bool{}
	}
	if _, ok := k.threads[thread]; !ok && len(k.threads) >= knownThreads {
		for other := range k.threads { // any one: the map's order is random
			delete(k.threads, other)
			break
		}
	}
	set := make(map[string]bool, len(manifest))
	for _, h := range manifest {
		set[h] = true
	}
	k.threads[thread] = set
}

func (k *known) has(thread, hash string) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.threads[thread][hash]
}

func (k *known) forget(thread string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	delete(k.threads, thread)
}
