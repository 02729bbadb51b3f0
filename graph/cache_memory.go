package graph

import (
	"container/list"
	"context"
	"slices"
	"sync"
	"time"
)

// DefaultCacheEntries bounds the memory cache a Runnable makes for its
// cached nodes when Compile is given no WithCacheStore.
const DefaultCacheEntries = 1024

// MemoryCache is a CacheStore in memory, bounded: past its size the least
// recently used entry goes. Expired entries go when they are read or
// evicted. It is safe for concurrent use.
type MemoryCache struct {
	mu    sync.Mutex
	max   int
	order *list.List               // most recently used first
	items map[string]*list.Element // key → its memEntry in order
	now   func() time.Time         // tests move the clock
}

type memEntry struct {
	key     string
	value   []byte
	expires time.Time // zero: never
}

// NewMemoryCache makes a memory cache of up to maxEntries entries
// (DefaultCacheEntries when it is less than 1).
func NewMemoryCache(maxEntries int) *MemoryCache {
	if maxEntries < 1 {
		maxEntries = DefaultCacheEntries
	}
	return &MemoryCache{max: maxEntries, order: list.New(), items: map[string]*list.Element{}, now: time.Now}
}

// Get returns the value of a key that is there and not expired.
func (c *MemoryCache) Get(_ context.Context, key string) ([]byte, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[key]
	if !ok {
		return nil, false, nil
	}
	e := el.Value.(*memEntry)
	if !e.expires.IsZero() && !c.now().Before(e.expires) {
		c.order.Remove(el)
		delete(c.items, key)
		return nil, false, nil
	}
	c.order.MoveToFront(el)
	return e.value, true, nil
}

// Set keeps a copy of value under key for ttl (0: until evicted).
func (c *MemoryCache) Set(_ context.Context, key string, value []byte, ttl time.Duration) error {
	e := &memEntry{key: key, value: slices.Clone(value)}
	if ttl > 0 {
		e.expires = c.now().Add(ttl)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[key]; ok {
		el.Value = e
		c.order.MoveToFront(el)
		return nil
	}
	c.items[key] = c.order.PushFront(e)
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.items, last.Value.(*memEntry).key)
	}
	return nil
}

// Len is the number of entries held, expired ones not yet evicted
// included.
func (c *MemoryCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
