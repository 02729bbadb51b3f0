package checkpoint

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/sgrgraph/sgrgraph/checkpoint/internal/rules"
)

// Locker is a Store that can give one owner at a time a thread: the turns
// of a conversation read the thread's last state and write a new one, so two
// at once would each write over the other. Every shipped store implements it
// and keeps its leases where its threads are, so that processes sharing the
// threads also share the locks.
type Locker interface {
	// TryLock takes the thread for owner (a name people can read: it is what
	// a refused caller is told) and keeps it until the Lease is released.
	// It never waits: a thread another owner holds is a *BusyError
	// (errors.Is ErrBusy) naming that owner. The lease lasts ttl from its
	// last renewal and is renewed every ttl/3 while its owner lives, so a
	// process that dies frees its threads within ttl.
	TryLock(ctx context.Context, thread, owner string, ttl time.Duration) (*Lease, error)
}

// ErrBusy is the error (tested with errors.Is) of TryLock for a thread that
// another owner holds.
var ErrBusy = errors.New("thread is busy")

// BusyError is TryLock's error for a thread another owner holds.
type BusyError struct {
	Thread string
	Holder string // the owner the holder gave TryLock
}

func (e *BusyError) Error() string {
	return fmt.Sprintf("thread %q is busy: %s holds it", e.Thread, e.Holder)
}

// Is makes errors.Is(err, ErrBusy) true.
func (e *BusyError) Is(target error) bool { return target == ErrBusy }

// LeaseOps is how a store keeps a lease it has taken. Each call gets a
// context with a deadline.
type LeaseOps struct {
	// Renew extends the lease by its ttl; held is false when the lease is
	// no longer the caller's (it expired and another owner took it).
	Renew func(ctx context.Context) (held bool, err error)
	// Free ends the lease, unless another owner holds the thread by now.
	Free func(ctx context.Context) error
}

// freeTimeout bounds Release's call to the store.
const freeTimeout = 10 * time.Second

// Lease is a thread held by one owner (Locker.TryLock). It is renewed in the
// background until Release; if renewals fail for its whole ttl, or the
// store says another owner holds the thread, the lease is lost: Lost closes,
// and the holder should stop writing the thread.
type Lease struct {
	Thread, Owner string
	ops           LeaseOps
	ttl           time.Duration
	stop          chan struct{} // closed by Release
	kept          chan struct{} // closed when keep returns
	lost          chan struct{}
	lostErr       error // set before lost closes
	once          sync.Once
	freeErr       error
}

// NewLease starts keeping a lease a store has just taken: taken is when the
// store was asked for it (before the call, so that the lease is never
// believed to last longer than the store keeps it). For implementations of
// Locker.
func NewLease(thread, owner string, ttl time.Duration, taken time.Time, ops LeaseOps) *Lease {
	l := &Lease{Thread: thread, Owner: owner, ops: ops, ttl: ttl,
		stop: make(chan struct{}), kept: make(chan struct{}), lost: make(chan struct{})}
	go l.keep(taken)
	return l
}

// keep renews the lease every ttl/3. A failed renewal is tried again at the
// next tick; the lease is lost when none has succeeded for ttl, since the
// store then lets another owner take the thread.
func (l *Lease) keep(last time.Time) {
	defer close(l.kept)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-l.stop:
			cancel() // Release does not wait for a renewal in flight
		case <-ctx.Done():
		}
	}()
	tick := time.NewTicker(l.ttl / 3)
	defer tick.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-tick.C:
		}
		sent := time.Now()
		// The store forgets the lease at last+ttl: a renewal that has not
		// answered by then comes too late.
		rctx, rcancel := context.WithDeadline(ctx, last.Add(l.ttl))
		held, err := l.ops.Renew(rctx)
		rcancel()
		switch {
		case ctx.Err() != nil:
			return
		case err == nil && held:
			last = sent
		case err == nil:
			l.lose(fmt.Errorf("thread %q: the lease of %s expired and another owner took the thread", l.Thread, l.Owner))
			return
		case !time.Now().Before(last.Add(l.ttl)):
			l.lose(fmt.Errorf("thread %q: the lease of %s could not be renewed for %s, so it expired: %w", l.Thread, l.Owner, l.ttl, err))
			return
		}
	}
}

func (l *Lease) lose(err error) {
	l.lostErr = err
	close(l.lost)
}

// Lost is closed when the lease is lost (see Lease); never when released.
func (l *Lease) Lost() <-chan struct{} { return l.lost }

// Err says why the lease was lost; nil while it is not.
func (l *Lease) Err() error {
	select {
	case <-l.lost:
		return l.lostErr
	default:
		return nil
	}
}

// Release stops renewing and frees the thread. Calling it again does
// nothing and returns the first call's error.
func (l *Lease) Release() error {
	l.once.Do(func() {
		close(l.stop)
		<-l.kept
		ctx, cancel := context.WithTimeout(context.Background(), freeTimeout)
		defer cancel()
		if err := l.ops.Free(ctx); err != nil {
			// The lease expires by itself within its ttl.
			l.freeErr = fmt.Errorf("thread %q: release the lease of %s: %w", l.Thread, l.Owner, err)
		}
	})
	return l.freeErr
}

// NewToken returns a random token that tells one lease of a thread from the
// others, for implementations of Locker: renewing and freeing compare it,
// so an owner whose lease expired never frees its successor's.
func NewToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails since Go 1.24
	return hex.EncodeToString(b[:])
}

// NewLocker returns a Locker whose leases live in this process only: for a
// Store of one process, or one that keeps no leases. Processes that share
// a store need the store's own Locker.
func NewLocker() Locker { return newProcLocker("checkpoint") }

func newProcLocker(name string) *procLocker {
	return &procLocker{name: name, held: map[string]procLease{}}
}

// procLocker keeps leases in a map under a mutex.
type procLocker struct {
	name   string // what its errors start with
	mu     sync.Mutex
	held   map[string]procLease // by thread
	closed bool
}

type procLease struct {
	token, owner string
	expires      time.Time
}

var errLockerClosed = errors.New("store is closed")

func (p *procLocker) TryLock(_ context.Context, thread, owner string, ttl time.Duration) (*Lease, error) {
	if err := rules.Lock(thread, owner, ttl); err != nil {
		return nil, fmt.Errorf("%s: lock: %w", p.name, err)
	}
	token, now := NewToken(), time.Now()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, fmt.Errorf("%s: lock: %w", p.name, errLockerClosed)
	}
	if h, ok := p.held[thread]; ok && now.Before(h.expires) {
		return nil, &BusyError{Thread: thread, Holder: h.owner}
	}
	p.held[thread] = procLease{token: token, owner: owner, expires: now.Add(ttl)}
	return NewLease(thread, owner, ttl, now, LeaseOps{
		Renew: func(context.Context) (bool, error) {
			p.mu.Lock()
			defer p.mu.Unlock()
			if p.closed {
				return false, errLockerClosed
			}
			h, ok := p.held[thread]
			if !ok || h.token != token {
				return false, nil
			}
			h.expires = time.Now().Add(ttl)
			p.held[thread] = h
			return true, nil
		},
		Free: func(context.Context) error {
			p.mu.Lock()
			defer p.mu.Unlock()
			if h, ok := p.held[thread]; ok && h.token == token {
				delete(p.held, thread)
			}
			return nil
		},
	}), nil
}

// close makes every lease fail to renew, as a store's would when it closes.
func (p *procLocker) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed, p.held = true, map[string]procLease{}
}
