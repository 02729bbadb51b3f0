package cachestore

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/sgrgraph/sgrgraph/internal/storeopen"
)

// Driver is what a store outside the process does itself: read and write
// its storage and keep its bound. NewStore puts in front of it what every
// store does alike: check the key, value and TTL against the limits, bound
// each call by its context or storeopen.DefaultTimeout, refuse a call whose
// context is done, and name the store and the operation in every error. A
// Driver is called only with valid input, a non-nil value and a context
// that has a deadline.
type Driver interface {
	// Get returns the value of a key that is there and not expired.
	Get(ctx context.Context, key string) (value []byte, ok bool, err error)
	// Set keeps value under key for ttl (0: until the bound removes it).
	Set(ctx context.Context, key string, value []byte, ttl time.Duration) error
	Close() error
}

// Store is a graph.CacheStore over a Driver. It is safe for concurrent use
// when its Driver is.
type Store struct {
	name      string
	d         Driver
	closeOnce sync.Once
	closeErr  error
}

// NewStore returns the store that keeps entries through d; name names it in
// errors ("cachestore/NAME: get: …").
func NewStore(name string, d Driver) *Store { return &Store{name: name, d: d} }

// Get returns the value of a key that is there and not expired; a value
// found is never nil.
func (s *Store) Get(ctx context.Context, key string) ([]byte, bool, error) {
	if err := CheckKey(key); err != nil {
		return nil, false, s.wrap("get", err)
	}
	ctx, cancel, err := s.call(ctx, "get")
	if err != nil {
		return nil, false, err
	}
	defer cancel()
	value, ok, err := s.d.Get(ctx, key)
	if err != nil {
		return nil, false, s.wrap("get", err)
	}
	if !ok {
		return nil, false, nil
	}
	if value == nil {
		value = []byte{}
	}
	return value, true, nil
}

// Set keeps value under key for ttl (0: until the bound removes it).
func (s *Store) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	if err := CheckSet(key, value, ttl); err != nil {
		return s.wrap("set", err)
	}
	ctx, cancel, err := s.call(ctx, "set")
	if err != nil {
		return err
	}
	defer cancel()
	if value == nil {
		value = []byte{} // an empty value is kept, and stores' columns are NOT NULL
	}
	if err := s.d.Set(ctx, key, value, ttl); err != nil {
		return s.wrap("set", err)
	}
	return nil
}

// Close closes the driver once; closing again returns the first result.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		if err := s.d.Close(); err != nil {
			s.closeErr = s.wrap("close", err)
		}
	})
	return s.closeErr
}

// call bounds one store call: the default timeout when ctx has none, and
// no work at all once ctx is done.
func (s *Store) call(ctx context.Context, op string) (context.Context, context.CancelFunc, error) {
	ctx, cancel := storeopen.Context(ctx)
	if err := ctx.Err(); err != nil {
		cancel()
		return nil, nil, s.wrap(op, err)
	}
	return ctx, cancel, nil
}

// wrap names the store and the operation in err.
func (s *Store) wrap(op string, err error) error {
	return fmt.Errorf("cachestore/%s: %s: %w", s.name, op, err)
}
