package memory

import (
	"container/heap"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/sgrgraph/sgrgraph/memory/internal/rules"
)

// inProcess keeps items in maps under one mutex, copying every value in
// and out so that callers never change what it stores.
type inProcess struct {
	mu      sync.Mutex
	spaces  map[string]map[string]Item // encoded namespace → key → item
	expires expiryHeap                 // items with a TTL, soonest first
	closed  bool
}

// NewInProcess returns a Store that lives in this process only: for tests
// and single-process programs that need no durability.
func NewInProcess() Store { return &inProcess{spaces: map[string]map[string]Item{}} }

func localErr(op string, err error) error { return fmt.Errorf("memory/inprocess: %s: %w", op, err) }

// lock takes the mutex unless ctx is done or the store closed; callers
// unlock on nil. The store never waits on anything else, so checking ctx
// here is its whole timeout.
func (m *inProcess) lock(ctx context.Context, op string) error {
	if err := ctx.Err(); err != nil {
		return localErr(op, err)
	}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return localErr(op, errors.New("store is closed"))
	}
	return nil
}

// now is the store's clock, to nanoseconds in UTC without a monotonic
// reading, as the durable stores return times.
func now() time.Time { return time.Unix(0, time.Now().UnixNano()).UTC() }

func (m *inProcess) Put(ctx context.Context, namespace []string, key string, value json.RawMessage, ttl time.Duration) (Item, error) {
	if err := rules.Put(namespace, key, value, ttl); err != nil {
		return Item{}, localErr("put", err)
	}
	if err := m.lock(ctx, "put"); err != nil {
		return Item{}, err
	}
	defer m.mu.Unlock()
	t := now()
	m.purge(t, rules.PurgeBatch)
	ns := rules.Encode(namespace)
	it := Item{Namespace: slices.Clone(namespace), Key: key, Value: slices.Clone(value), Created: t, Updated: t}
	if old, ok := m.spaces[ns][key]; ok && live(old, t) {
		it.Created = old.Created
	}
	if ttl > 0 {
		it.Expires = t.Add(ttl)
		heap.Push(&m.expires, expiry{at: it.Expires, ns: ns, key: key})
	}
	if m.spaces[ns] == nil {
		m.spaces[ns] = map[string]Item{}
	}
	m.spaces[ns][key] = it
	return clone(it), nil
}

func (m *inProcess) Get(ctx context.Context, namespace []string, key string) (Item, error) {
	if err := errors.Join(rules.Namespace(namespace), rules.Key(key)); err != nil {
		return Item{}, localErr("get", err)
	}
	if err := m.lock(ctx, "get"); err != nil {
		return Item{}, err
	}
	defer m.mu.Unlock()
	it, ok := m.spaces[rules.Encode(namespace)][key]
	if !ok || !live(it, now()) {
		return Item{}, localErr("get", fmt.Errorf("%q %q: %w", namespace, key, ErrNotFound))
	}
	return clone(it), nil
}

func (m *inProcess) Delete(ctx context.Context, namespace []string, key string) error {
	if err := errors.Join(rules.Namespace(namespace), rules.Key(key)); err != nil {
		return localErr("delete", err)
	}
	if err := m.lock(ctx, "delete"); err != nil {
		return err
	}
	defer m.mu.Unlock()
	m.remove(rules.Encode(namespace), key)
	return nil
}

func (m *inProcess) List(ctx context.Context, o ListOptions) ([][]string, error) {
	if err := o.Validate(); err != nil {
		return nil, localErr("list", err)
	}
	if err := m.lock(ctx, "list"); err != nil {
		return nil, err
	}
	defer m.mu.Unlock()
	t := now()
	var spaces []string
	for ns, items := range m.spaces {
		if !rules.Under(rules.Decode(ns), o.Prefix) {
			continue
		}
		for _, it := range items {
			if live(it, t) {
				spaces = append(spaces, ns)
				break
			}
		}
	}
	sort.Strings(spaces) // byte order of encodings is the order of parts
	out := [][]string{}
	for _, ns := range Page(spaces, o.Limit, o.Offset) {
		out = append(out, rules.Decode(ns))
	}
	return out, nil
}

func (m *inProcess) Search(ctx context.Context, q Query) ([]Item, error) {
	if err := q.Validate(); err != nil {
		return nil, localErr("search", err)
	}
	if err := m.lock(ctx, "search"); err != nil {
		return nil, err
	}
	var found []Item
	t := now()
	for ns, items := range m.spaces {
		if rules.Under(rules.Decode(ns), q.Prefix) {
			for _, it := range items {
				if live(it, t) {
					found = append(found, clone(it))
				}
			}
		}
	}
	m.mu.Unlock() // found holds copies: the text search runs unlocked
	out, err := q.Apply(found)
	if err != nil {
		return nil, localErr("search", err)
	}
	return out, nil
}

func (m *inProcess) Purge(ctx context.Context) (int, error) {
	if err := m.lock(ctx, "purge"); err != nil {
		return 0, err
	}
	defer m.mu.Unlock()
	return m.purge(now(), -1), nil
}

func (m *inProcess) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed, m.spaces, m.expires = true, nil, nil
	return nil
}

// purge removes up to limit (-1: all) items expired at t, soonest first.
// A heap entry whose item was replaced or deleted since is dropped unseen.
func (m *inProcess) purge(t time.Time, limit int) int {
	n := 0
	for len(m.expires) > 0 && !m.expires[0].at.After(t) && n != limit {
		e := heap.Pop(&m.expires).(expiry)
		if it, ok := m.spaces[e.ns][e.key]; ok && it.Expires.Equal(e.at) {
			m.remove(e.ns, e.key)
			n++
		}
	}
	return n
}

func (m *inProcess) remove(ns, key string) {
	delete(m.spaces[ns], key)
	if len(m.spaces[ns]) == 0 {
		delete(m.spaces, ns)
	}
}

func live(it Item, t time.Time) bool { return it.Expires.IsZero() || it.Expires.After(t) }

func clone(it Item) Item {
	it.Namespace, it.Value = slices.Clone(it.Namespace), slices.Clone(it.Value)
	return it
}
