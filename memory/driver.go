package memory

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/sgrgraph/sgrgraph/memory/internal/rules"
)

// Driver is what a durable store does itself: read and write its storage.
// NewStore puts in front of it what every store must do alike: check the
// input against the limits, bound each call by its context or
// DefaultTimeout, refuse calls once the context is done or the store
// closed, turn a missing item into ErrNotFound and name the store and the
// operation in every error. A Driver is called only with valid input and a
// context that has a deadline.
type Driver interface {
	// Put stores it (Created unset: the driver returns it, the old item's
	// unless that one had expired) and purges up to PurgeBatch expired
	// items on its way.
	Put(ctx context.Context, it Item) (created time.Time, err error)
	// Get returns the live item, or false when it is missing or expired.
	Get(ctx context.Context, namespace []string, key string) (Item, bool, error)
	Delete(ctx context.Context, namespace []string, key string) error
	// Namespaces answers List.
	Namespaces(ctx context.Context, o ListOptions) ([][]string, error)
	// Live returns the live items under q.Prefix, at least those q.Filter
	// selects: Search applies q to them.
	Live(ctx context.Context, q Query) ([]Item, error)
	Purge(ctx context.Context) (int, error)
	Close() error
}

// NewStore returns the Store that keeps items through d; name names it in
// errors ("memory/NAME: get: …").
func NewStore(name string, d Driver) Store { return &driven{name: name, d: d} }

type driven struct {
	name      string
	d         Driver
	closeOnce sync.Once
	closeErr  error
}

// call bounds one store call: the default timeout when ctx has none, and
// no work at all once ctx is done.
func (s *driven) call(ctx context.Context, op string) (context.Context, context.CancelFunc, error) {
	ctx, cancel := rules.Context(ctx)
	if err := ctx.Err(); err != nil {
		cancel()
		return nil, nil, s.wrap(op, err)
	}
	return ctx, cancel, nil
}

// wrap names the store and the operation in err.
func (s *driven) wrap(op string, err error) error {
	return fmt.Errorf("memory/%s: %s: %w", s.name, op, err)
}

func (s *driven) Put(ctx context.Context, namespace []string, key string, value json.RawMessage, ttl time.Duration) (Item, error) {
	if err := rules.Put(namespace, key, value, ttl); err != nil {
		return Item{}, s.wrap("put", err)
	}
	ctx, cancel, err := s.call(ctx, "put")
	if err != nil {
		return Item{}, err
	}
	defer cancel()
	t := now()
	it := Item{Namespace: slices.Clone(namespace), Key: key, Value: slices.Clone(value), Updated: t}
	if ttl > 0 {
		it.Expires = t.Add(ttl)
	}
	if it.Created, err = s.d.Put(ctx, it); err != nil {
		return Item{}, s.wrap("put", err)
	}
	return it, nil
}

func (s *driven) Get(ctx context.Context, namespace []string, key string) (Item, error) {
	if err := errors.Join(rules.Namespace(namespace), rules.Key(key)); err != nil {
		return Item{}, s.wrap("get", err)
	}
	ctx, cancel, err := s.call(ctx, "get")
	if err != nil {
		return Item{}, err
	}
	defer cancel()
	it, ok, err := s.d.Get(ctx, namespace, key)
	if err == nil && !ok {
		err = fmt.Errorf("%q %q: %w", namespace, key, ErrNotFound)
	}
	if err != nil {
		return Item{}, s.wrap("get", err)
	}
	return it, nil
}

func (s *driven) Delete(ctx context.Context, namespace []string, key string) error {
	if err := errors.Join(rules.Namespace(namespace), rules.Key(key)); err != nil {
		return s.wrap("delete", err)
	}
	ctx, cancel, err := s.call(ctx, "delete")
	if err != nil {
		return err
	}
	defer cancel()
	if err := s.d.Delete(ctx, namespace, key); err != nil {
		return s.wrap("delete", err)
	}
	return nil
}

func (s *driven) List(ctx context.Context, o ListOptions) ([][]string, error) {
	if err := o.Validate(); err != nil {
		return nil, s.wrap("list", err)
	}
	ctx, cancel, err := s.call(ctx, "list")
	if err != nil {
		return nil, err
	}
	defer cancel()
	if o.Limit == 0 {
		o.Limit = DefaultLimit
	}
	spaces, err := s.d.Namespaces(ctx, o)
	if err != nil {
		return nil, s.wrap("list", err)
	}
	if spaces == nil {
		spaces = [][]string{}
	}
	return spaces, nil
}

func (s *driven) Search(ctx context.Context, q Query) ([]Item, error) {
	if err := q.Validate(); err != nil {
		return nil, s.wrap("search", err)
	}
	ctx, cancel, err := s.call(ctx, "search")
	if err != nil {
		return nil, err
	}
	defer cancel()
	items, err := s.d.Live(ctx, q)
	if err != nil {
		return nil, s.wrap("search", err)
	}
	out, err := q.Apply(items)
	if err != nil {
		return nil, s.wrap("search", err)
	}
	return out, nil
}

func (s *driven) Purge(ctx context.Context) (int, error) {
	ctx, cancel, err := s.call(ctx, "purge")
	if err != nil {
		return 0, err
	}
	defer cancel()
	n, err := s.d.Purge(ctx)
	if err != nil {
		return n, s.wrap("purge", err)
	}
	return n, nil
}

// Close closes the driver once; closing again returns the first result.
func (s *driven) Close() error {
	s.closeOnce.Do(func() {
		if err := s.d.Close(); err != nil {
			s.closeErr = s.wrap("close", err)
		}
	})
	return s.closeErr
}

// UnixNanos and FromUnixNanos convert times as the durable stores keep
// them, in Unix nanoseconds with 0 for the zero time (never).
func UnixNanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// FromUnixNanos is UnixNanos's inverse, in UTC.
func FromUnixNanos(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}
