package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/sgrgraph/sgrgraph/checkpoint"
)

// ErrThreadBusy is the error (tested with errors.Is) of a turn, or of
// LockThread, refused because another turn of its thread is running. Turns
// of one thread run one at a time: each reads the thread's last turn and
// writes the next, so two at once would write over each other. The error is
// a *checkpoint.BusyError, whose Holder names the running turn's owner.
// A busy thread is refused, not waited for.
var ErrThreadBusy = checkpoint.ErrBusy

// threadLease is how long a thread stays held after the process running
// its turn died; while the turn runs, its lease is renewed every third of it.
const threadLease = 30 * time.Second

// lockTimeout bounds taking a thread's lease from the store.
const lockTimeout = 10 * time.Second

// processLocks holds the threads of stores that are no checkpoint.Locker
// (a store of the caller's own), in this process only. Every shipped store
// is a Locker and shares its leases with the processes sharing its threads.
var processLocks = checkpoint.NewLocker()

// ThreadLock is a thread taken ahead of its turn (LockThread), so that a
// caller can refuse a busy thread before it answers anything: a server,
// before a stream's headers. Give it to the turn as Turn.Lock; the turn
// runs under it and frees it when it ends.
type ThreadLock struct {
	thread string
	lease  *checkpoint.Lease
	mu     sync.Mutex
	ran    bool // a turn started under it: the turn's end frees it
	freed  bool // Release freed it before any turn started
}

// LockThread takes thread for owner, a name the turns it refuses are told
// (such as "request 4f2a…"). A thread another turn holds is ErrThreadBusy.
func (a *Agent) LockThread(ctx context.Context, thread, owner string) (*ThreadLock, error) {
	if a.store == nil {
		return nil, fmt.Errorf("lock thread %q: %w", thread, ErrNoStore)
	}
	locker, ok := a.store.(checkpoint.Locker)
	if !ok {
		locker = processLocks
	}
	ctx, cancel := context.WithTimeout(ctx, lockTimeout)
	defer cancel()
	lease, err := locker.TryLock(ctx, thread, owner, threadLease)
	if errors.Is(err, checkpoint.ErrBusy) {
		return nil, err // it names the thread and its holder
	}
	if err != nil {
		return nil, fmt.Errorf("lock thread %q: %w", thread, err)
	}
	return &ThreadLock{thread: thread, lease: lease}, nil
}

// Release frees the thread unless a turn has started under the lock (the
// turn frees it when it ends). Call it, deferred, wherever the turn may
// not run; calling it again does nothing. An error means the store could
// not be told: the thread is then free once the lease expires (30 s).
func (l *ThreadLock) Release() error {
	l.mu.Lock()
	if l.ran || l.freed {
		l.mu.Unlock()
		return nil
	}
	l.freed = true
	l.mu.Unlock()
	return l.lease.Release()
}

// start marks the lock as its turn's; false when it was freed already.
func (l *ThreadLock) start() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.freed {
		return false
	}
	l.ran = true
	return true
}

// hold holds the turn's thread for the turn: the lock its caller took
// (Turn.Lock) or a new one. The returned context ends if the lease is lost,
// since another turn may then write the thread; release frees the thread.
func (a *Agent) hold(ctx context.Context, t *Turn) (context.Context, func(), error) {
	l := t.Lock
	if l == nil {
		var err error
		if l, err = a.LockThread(ctx, t.Thread, processOwner()); err != nil {
			return ctx, nil, err
		}
	} else if l.thread != t.Thread {
		return ctx, nil, fmt.Errorf("turn: thread %q: Turn.Lock holds thread %q", t.Thread, l.thread)
	}
	if !l.start() {
		return ctx, nil, fmt.Errorf("turn: thread %q: its lock was released before the turn started", t.Thread)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	go func() {
		select {
		case <-l.lease.Lost():
			cancel(fmt.Errorf("turn stopped so as not to write over another turn: %w", l.lease.Err()))
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		if err := l.lease.Release(); err != nil {
			zerolog.Ctx(ctx).Warn().Err(err).Str("thread", t.Thread).Msg("thread lock")
		}
		cancel(nil)
	}, nil
}

// processOwner names this process as the holder of a thread whose caller
// gave no lock of its own (the command line, a worker).
func processOwner() string {
	host, err := os.Hostname()
	if err != nil {
		host = "an unnamed host"
	}
	return fmt.Sprintf("process %d on %s", os.Getpid(), host)
}
