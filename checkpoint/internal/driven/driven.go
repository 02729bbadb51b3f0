// Package driven is the checkpoint.Store of the durable stores: it keeps in
// front of each one's Driver what every store does alike, so that sqlite,
// postgres and redis keep only their storage code.
package driven

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/checkpoint/internal/blob"
	"github.com/sgrgraph/sgrgraph/checkpoint/internal/record"
	"github.com/sgrgraph/sgrgraph/checkpoint/internal/rules"
)

// Driver is what a durable store does itself: read and write its storage.
// Store puts in front of it the checks of the input against the limits, a
// deadline on each call (rules.Context), the errors of a missing checkpoint
// (checkpoint.ErrNotFound) and of a taken ID, the retries of TryLock, the
// count of what Put wrote, one Close, and the store and the operation named
// in every error. A Driver is called only with valid input and a context
// that has a deadline.
type Driver interface {
	// Put stores r and returns its ID (r's, or one made from the thread's
	// next sequence number), how many pieces it wrote and the bytes it gave
	// the backend in all (checkpoint.Written). An ID the thread has is
	// ErrExists.
	Put(ctx context.Context, r Record) (id string, pieces, bytes int, err error)
	// Get and Latest return false when the thread has no such checkpoint.
	Get(ctx context.Context, thread, id string) (checkpoint.Checkpoint, bool, error)
	Latest(ctx context.Context, thread string) (checkpoint.Checkpoint, bool, error)
	// List returns false when o.Before names no checkpoint of the thread.
	List(ctx context.Context, thread string, o checkpoint.ListOptions) ([]checkpoint.Checkpoint, bool, error)
	Threads(ctx context.Context) ([]checkpoint.ThreadInfo, error)
	// Prune is given a retention with a limit; it returns how many
	// checkpoints it removed, also when it fails partway.
	Prune(ctx context.Context, thread string, r checkpoint.Retention) (int, error)
	Delete(ctx context.Context, thread string) error
	Stored(ctx context.Context, thread string) (checkpoint.Stored, error)
	// Take tries once, at now, to take the thread's lease for owner under
	// token. Taken, it returns how to keep the lease; held by another, the
	// holder's owner; freed meanwhile, neither.
	Take(ctx context.Context, thread, owner, token string, now time.Time, ttl time.Duration) (taken *checkpoint.LeaseOps, holder string, err error)
	Close() error
}

// Record is a checkpoint ready to store.
type Record struct {
	// Checkpoint is valid and has its Metadata.Time; an empty ID is the
	// driver's to make.
	Checkpoint checkpoint.Checkpoint
	Header     []byte // JSON: parent, next, interrupts, metadata
	// State is the state whole, or empty (not nil) when Manifest lists its
	// pieces.
	State    []byte
	Manifest []string // the pieces of the state in order; nil: it is whole
	Pieces   []blob.Piece
}

// ErrExists is Driver.Put's error for an ID the thread already has.
var ErrExists = errors.New("the thread has the checkpoint's ID")

// takeAttempts bounds the retries of a lease freed between the look that
// found it held and the one that reads its holder.
const takeAttempts = 3

// Store is a checkpoint.Store, Locker and Meter over a Driver.
type Store struct {
	name      string
	d         Driver
	written   checkpoint.WriteMeter
	closeOnce sync.Once
	closeErr  error
}

var (
	_ checkpoint.Store  = (*Store)(nil)
	_ checkpoint.Locker = (*Store)(nil)
	_ checkpoint.Meter  = (*Store)(nil)
)

// New returns the store that keeps checkpoints through d; name names it in
// errors ("checkpoint/NAME: get: …").
func New(name string, d Driver) *Store { return &Store{name: name, d: d} }

// Put implements checkpoint.Store: the checkpoint is checked and laid out
// (state in pieces when large), then written through the driver; a taken
// ID is refused.
func (s *Store) Put(ctx context.Context, cp checkpoint.Checkpoint) (checkpoint.Checkpoint, error) {
	cp, header, err := record.ForPut(cp, time.Now())
	if err != nil {
		return checkpoint.Checkpoint{}, s.wrap("put", err)
	}
	pieces, manifest := record.Pieces(cp)
	state := record.State(cp)
	if manifest != nil {
		state = []byte{}
	}
	ctx, cancel := rules.Context(ctx)
	defer cancel()
	id, written, bytes, err := s.d.Put(ctx, Record{Checkpoint: cp, Header: header, State: state, Manifest: manifest, Pieces: pieces})
	if errors.Is(err, ErrExists) {
		err = fmt.Errorf("thread %q already has checkpoint %q", cp.Thread, cp.ID)
	}
	if err != nil {
		return checkpoint.Checkpoint{}, s.wrap("put", err)
	}
	s.written.Add(written, bytes)
	cp.ID = id
	return cp, nil
}

// Get implements checkpoint.Store; a missing checkpoint is ErrNotFound.
func (s *Store) Get(ctx context.Context, thread, id string) (checkpoint.Checkpoint, error) {
	if err := errors.Join(rules.Key("thread", thread), rules.Key("id", id)); err != nil {
		return checkpoint.Checkpoint{}, s.wrap("get", err)
	}
	ctx, cancel := rules.Context(ctx)
	defer cancel()
	cp, ok, err := s.d.Get(ctx, thread, id)
	if err == nil && !ok {
		err = fmt.Errorf("thread %q checkpoint %q: %w", thread, id, checkpoint.ErrNotFound)
	}
	if err != nil {
		return checkpoint.Checkpoint{}, s.wrap("get", err)
	}
	return cp, nil
}

// Latest implements checkpoint.Store; a thread without checkpoints is
// ErrNotFound.
func (s *Store) Latest(ctx context.Context, thread string) (checkpoint.Checkpoint, error) {
	if err := rules.Key("thread", thread); err != nil {
		return checkpoint.Checkpoint{}, s.wrap("latest", err)
	}
	ctx, cancel := rules.Context(ctx)
	defer cancel()
	cp, ok, err := s.d.Latest(ctx, thread)
	if err == nil && !ok {
		err = fmt.Errorf("thread %q: %w", thread, checkpoint.ErrNotFound)
	}
	if err != nil {
		return checkpoint.Checkpoint{}, s.wrap("latest", err)
	}
	return cp, nil
}

// List implements checkpoint.Store; a Before the thread lacks is
// ErrNotFound.
func (s *Store) List(ctx context.Context, thread string, o checkpoint.ListOptions) ([]checkpoint.Checkpoint, error) {
	if err := rules.List(thread, o.Limit, o.Before); err != nil {
		return nil, s.wrap("list", err)
	}
	ctx, cancel := rules.Context(ctx)
	defer cancel()
	out, ok, err := s.d.List(ctx, thread, o)
	if err == nil && !ok {
		err = fmt.Errorf("thread %q before %q: %w", thread, o.Before, checkpoint.ErrNotFound)
	}
	if err != nil {
		return nil, s.wrap("list", err)
	}
	return out, nil
}

// Threads implements checkpoint.Store.
func (s *Store) Threads(ctx context.Context) ([]checkpoint.ThreadInfo, error) {
	ctx, cancel := rules.Context(ctx)
	defer cancel()
	out, err := s.d.Threads(ctx)
	if err != nil {
		return nil, s.wrap("threads", err)
	}
	return out, nil
}

// Prune implements checkpoint.Store; a retention that keeps everything
// removes nothing without asking the driver.
func (s *Store) Prune(ctx context.Context, thread string, r checkpoint.Retention) (int, error) {
	if err := rules.Retention(thread, r.KeepLast, r.MaxAge); err != nil {
		return 0, s.wrap("prune", err)
	}
	if r.KeepLast == 0 && r.MaxAge == 0 {
		return 0, nil
	}
	ctx, cancel := rules.Context(ctx)
	defer cancel()
	removed, err := s.d.Prune(ctx, thread, r)
	if err != nil {
		return removed, s.wrap("prune", err)
	}
	return removed, nil
}

// Delete implements checkpoint.Store.
func (s *Store) Delete(ctx context.Context, thread string) error {
	if err := rules.Key("thread", thread); err != nil {
		return s.wrap("delete", err)
	}
	ctx, cancel := rules.Context(ctx)
	defer cancel()
	if err := s.d.Delete(ctx, thread); err != nil {
		return s.wrap("delete", err)
	}
	return nil
}

// Written implements checkpoint.Meter.
func (s *Store) Written() checkpoint.Written { return s.written.Written() }

// Stored implements checkpoint.Meter.
func (s *Store) Stored(ctx context.Context, thread string) (checkpoint.Stored, error) {
	if err := rules.OptionalKey("thread", thread); err != nil {
		return checkpoint.Stored{}, s.wrap("stored", err)
	}
	ctx, cancel := rules.Context(ctx)
	defer cancel()
	st, err := s.d.Stored(ctx, thread)
	if err != nil {
		return checkpoint.Stored{}, s.wrap("stored", err)
	}
	return st, nil
}

// TryLock implements checkpoint.Locker with the driver's leases.
func (s *Store) TryLock(ctx context.Context, thread, owner string, ttl time.Duration) (*checkpoint.Lease, error) {
	if err := rules.Lock(thread, owner, ttl); err != nil {
		return nil, s.wrap("lock", err)
	}
	ctx, cancel := rules.Context(ctx)
	defer cancel()
	token := checkpoint.NewToken()
	for range takeAttempts {
		now := time.Now()
		ops, holder, err := s.d.Take(ctx, thread, owner, token, now, ttl)
		switch {
		case err != nil:
			return nil, s.wrap("lock", fmt.Errorf("thread %q: %w", thread, err))
		case ops != nil:
			return checkpoint.NewLease(thread, owner, ttl, now, s.named(*ops)), nil
		case holder != "":
			return nil, &checkpoint.BusyError{Thread: thread, Holder: holder}
		}
	}
	return nil, s.wrap("lock", fmt.Errorf("thread %q: its lease changed hands %d times while it was being taken", thread, takeAttempts))
}

// named names the store and the operation in the errors of a lease's ops.
func (s *Store) named(ops checkpoint.LeaseOps) checkpoint.LeaseOps {
	return checkpoint.LeaseOps{
		Renew: func(ctx context.Context) (bool, error) {
			held, err := ops.Renew(ctx)
			if err != nil {
				return false, s.wrap("renew lease", err)
			}
			return held, nil
		},
		Free: func(ctx context.Context) error {
			if err := ops.Free(ctx); err != nil {
				return s.wrap("free lease", err)
			}
			return nil
		},
	}
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

// wrap names the store and the operation in err.
func (s *Store) wrap(op string, err error) error {
	return fmt.Errorf("checkpoint/%s: %s: %w", s.name, op, err)
}
