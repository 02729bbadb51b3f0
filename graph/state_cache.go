package graph

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/sgrgraph/sgrgraph/checkpoint"
)

// CheckpointerOption tunes WithCheckpointer.
type CheckpointerOption func(*checkpointerOptions)

type checkpointerOptions struct{ cacheStates int }

// CacheStates keeps in memory the state each run of the graph ended with,
// for the threads most recently ended (at most threads of them). Reading
// such a thread back (State, and a run that starts on its state) then
// reads the head of its latest checkpoint (checkpoint.ListOptions.NoState)
// and, when that is still the checkpoint the run wrote, returns a copy of
// the kept state (copyState) instead of reading and decoding the stored
// one: for a conversation whose next turn comes while its last is fresh,
// the cost of a turn's state read falls from decoding it to copying it.
//
// The copy is the state as the run left it, not as JSON gave it back: a
// field JSON leaves out (json:"-", unexported) or changes (a number in an
// interface, which JSON reads as float64) is as the run left it. Use it for
// states whose readers need only what JSON keeps the same.
func CacheStates(threads int) CheckpointerOption {
	return func(o *checkpointerOptions) { o.cacheStates = threads }
}

// cachedStore is a checkpointer with the states runs ended with
// (CacheStates).
type cachedStore struct {
	checkpoint.Store
	mu    sync.Mutex
	max   int
	items map[string]*list.Element
	order *list.List // of *cachedState, the most recent first
}

type cachedState struct {
	thread, id string
	time       time.Time
	state      any // an S no run changes
}

func newCachedStore(store checkpoint.Store, threads int) *cachedStore {
	return &cachedStore{Store: store, max: threads, items: map[string]*list.Element{}, order: list.New()}
}

// cacheOf is the store's cache, or nil.
func cacheOf(store checkpoint.Store) *cachedStore {
	c, _ := store.(*cachedStore)
	return c
}

// keep remembers s as the state of cp, its thread's newest checkpoint.
func (c *cachedStore) keep(cp checkpoint.Checkpoint, s any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := &cachedState{thread: cp.Thread, id: cp.ID, time: cp.Metadata.Time, state: s}
	if el, ok := c.items[cp.Thread]; ok {
		el.Value = e
		c.order.MoveToFront(el)
		return
	}
	c.items[cp.Thread] = c.order.PushFront(e)
	for c.order.Len() > c.max {
		old := c.order.Remove(c.order.Back()).(*cachedState)
		delete(c.items, old.thread)
	}
}

// state is the kept state of head's checkpoint, if it is the one kept.
func (c *cachedStore) state(head checkpoint.Checkpoint) (any, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[head.Thread]
	if !ok {
		return nil, false
	}
	e := el.Value.(*cachedState)
	if e.id != head.ID || !e.time.Equal(head.Metadata.Time) {
		return nil, false
	}
	c.order.MoveToFront(el)
	return e.state, true
}

// head is the thread's latest checkpoint, its state left out when the store
// can (ListOptions.NoState).
func (r *Runnable[S]) head(ctx context.Context, thread string) (checkpoint.Checkpoint, error) {
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	heads, err := r.store.List(ctx, thread, checkpoint.ListOptions{Limit: 1, NoState: true})
	if err == nil && len(heads) == 0 {
		err = fmt.Errorf("thread %q: %w", thread, checkpoint.ErrNotFound)
	}
	if err != nil {
		return checkpoint.Checkpoint{}, fmt.Errorf("graph %s: thread %q: %w", r.g.name, thread, err)
	}
	return heads[0], nil
}

// whole is the checkpoint of head with its state (one read more, when the
// head came without it); the thread's latest when it was pruned meanwhile.
func (r *Runnable[S]) whole(ctx context.Context, head checkpoint.Checkpoint) (checkpoint.Checkpoint, error) {
	if head.State != nil {
		return head, nil
	}
	cp, err := r.load(ctx, head.Thread, head.ID)
	if errors.Is(err, checkpoint.ErrNotFound) {
		return r.load(ctx, head.Thread, "")
	}
	return cp, err
}

// stateOf is the state of the checkpoint head is the head of: a copy of
// the kept one (CacheStates), or the stored one decoded. Its errors name
// the graph.
func (r *Runnable[S]) stateOf(ctx context.Context, head checkpoint.Checkpoint) (S, checkpoint.Checkpoint, error) {
	if c := cacheOf(r.store); c != nil {
		if s, ok := c.state(head); ok {
			return copyState(s.(S)), head, nil
		}
	}
	var zero S
	cp, err := r.whole(ctx, head)
	if err != nil {
		return zero, cp, err
	}
	s, err := r.codec.Decode(cp)
	if err != nil {
		return zero, cp, fmt.Errorf("graph %s: %w", r.g.name, err)
	}
	return s, cp, nil
}

// keep remembers the state of a run's last checkpoint, saved.
func (tr *threadRun[S]) keep(saved checkpoint.Checkpoint, s S) {
	if tr.cache != nil {
		tr.cache.keep(saved, copyState(s))
	}
}
