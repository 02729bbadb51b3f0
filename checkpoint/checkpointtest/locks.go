package checkpointtest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/checkpoint"
)

// lockCases are the subtests of Run for a store that is a checkpoint.Locker.
var lockCases = []struct {
	name string
	test func(t *testing.T, l checkpoint.Locker)
}{
	{"lock: one holder at a time", testLockOneHolder},
	{"lock: concurrent takers", testLockConcurrent},
	{"lock: renewed past its ttl", testLockRenewed},
	{"lock: validation", testLockValidation},
}

// locker is s as a Locker, or skips the test.
func locker(t *testing.T, s checkpoint.Store) checkpoint.Locker {
	t.Helper()
	l, ok := s.(checkpoint.Locker)
	if !ok {
		t.Skipf("%T is no checkpoint.Locker", s)
	}
	return l
}

// release releases a lease when the test ends, whatever happened.
func release(t *testing.T, l *checkpoint.Lease) {
	t.Cleanup(func() { _ = l.Release() })
}

// requireBusy fails unless err is a BusyError of thread naming holder.
func requireBusy(t *testing.T, err error, thread, holder string) {
	t.Helper()
	require.ErrorIs(t, err, checkpoint.ErrBusy)
	var busy *checkpoint.BusyError
	require.ErrorAs(t, err, &busy)
	assert.Equal(t, thread, busy.Thread)
	assert.Equal(t, holder, busy.Holder, "a refusal names the holder")
	assert.Contains(t, err.Error(), holder)
}

func testLockOneHolder(t *testing.T, l checkpoint.Locker) {
	alpha, err := l.TryLock(ctx(t), "t1", "alpha", time.Minute)
	require.NoError(t, err)
	release(t, alpha)
	assert.Equal(t, "t1", alpha.Thread)
	assert.Equal(t, "alpha", alpha.Owner)

	_, err = l.TryLock(ctx(t), "t1", "beta", time.Minute)
	requireBusy(t, err, "t1", "alpha")
	_, err = l.TryLock(ctx(t), "t1", "alpha", time.Minute)
	requireBusy(t, err, "t1", "alpha") // not reentrant: one owner's two turns exclude each other too

	other, err := l.TryLock(ctx(t), "t2", "beta", time.Minute)
	require.NoError(t, err, "threads are locked one by one")
	release(t, other)

	require.NoError(t, alpha.Release())
	require.NoError(t, alpha.Release(), "releasing again is no error")
	select {
	case <-alpha.Lost():
		t.Fatal("a released lease is not lost")
	default:
	}
	beta, err := l.TryLock(ctx(t), "t1", "beta", time.Minute)
	require.NoError(t, err, "a released thread can be taken")
	release(t, beta)
}

func testLockConcurrent(t *testing.T, l checkpoint.Locker) {
	const takers = 16
	var wg sync.WaitGroup
	leases := make([]*checkpoint.Lease, takers)
	errs := make([]error, takers)
	for i := range takers {
		wg.Go(func() { leases[i], errs[i] = l.TryLock(ctx(t), "shared", fmt.Sprintf("taker %d", i), time.Minute) })
	}
	wg.Wait()
	winner := -1
	for i := range takers {
		if errs[i] == nil {
			release(t, leases[i])
			require.Equal(t, -1, winner, "takers %d and %d both hold the thread", winner, i)
			winner = i
		}
	}
	require.NotEqual(t, -1, winner, "one taker holds the thread: %v", errors.Join(errs...))
	for i, err := range errs {
		if i != winner {
			requireBusy(t, err, "shared", fmt.Sprintf("taker %d", winner))
		}
	}
}

func testLockRenewed(t *testing.T, l checkpoint.Locker) {
	const ttl = 300 * time.Millisecond
	alpha, err := l.TryLock(ctx(t), "t1", "alpha", ttl)
	require.NoError(t, err)
	release(t, alpha)
	time.Sleep(4 * ttl)
	_, err = l.TryLock(ctx(t), "t1", "beta", ttl)
	requireBusy(t, err, "t1", "alpha")
	require.NoError(t, alpha.Err(), "a lease renewed in time is not lost")
}

func testLockValidation(t *testing.T, l checkpoint.Locker) {
	cases := []struct {
		thread, owner string
		ttl           time.Duration
		want          string
	}{
		{"", "alpha", time.Minute, "thread is empty"},
		{"t1", "", time.Minute, "owner is empty"},
		{"t1", "alpha", 0, "ttl"},
		{"t1", "alpha", 25 * time.Hour, "ttl"},
	}
	for _, c := range cases {
		_, err := l.TryLock(ctx(t), c.thread, c.owner, c.ttl)
		require.ErrorContains(t, err, c.want)
		assert.NotErrorIs(t, err, checkpoint.ErrBusy)
	}
}

// RunShared runs the subtests of two stores on one backend, as two
// processes sharing it see it. open returns both; RunShared closes them.
func RunShared(t *testing.T, open func(t *testing.T) (first, second checkpoint.Store)) {
	cases := []struct {
		name string
		test func(t *testing.T, first, second checkpoint.Store)
	}{
		{"lock: a lease holds in every process", testSharedLease},
		{"lock: a dead process's lease expires", testDeadOwner},
		{"lock: a process's checkpoints reach the other", testSharedCheckpoints},
		{"pieces: a process writes again what the other deleted", testPiecesAcrossProcesses},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			first, second := open(t)
			t.Cleanup(func() {
				_ = first.Close() // testDeadOwner closed it already
				assert.NoError(t, second.Close(), "close")
			})
			c.test(t, first, second)
		})
	}
}

func testSharedLease(t *testing.T, first, second checkpoint.Store) {
	a, b := locker(t, first), locker(t, second)
	alpha, err := a.TryLock(ctx(t), "t1", "alpha", time.Minute)
	require.NoError(t, err)
	release(t, alpha)
	_, err = b.TryLock(ctx(t), "t1", "beta", time.Minute)
	requireBusy(t, err, "t1", "alpha")
	require.NoError(t, alpha.Release())
	beta, err := b.TryLock(ctx(t), "t1", "beta", time.Minute)
	require.NoError(t, err)
	release(t, beta)
	_, err = a.TryLock(ctx(t), "t1", "alpha", time.Minute)
	requireBusy(t, err, "t1", "beta")
}

// testDeadOwner: a process that dies holding a thread neither renews nor
// frees its lease; closing its store is that death as the other sees it.
func testDeadOwner(t *testing.T, first, second checkpoint.Store) {
	const ttl = 600 * time.Millisecond
	dead, err := locker(t, first).TryLock(ctx(t), "t1", "dead owner", ttl)
	require.NoError(t, err)
	taken := time.Now()
	require.NoError(t, first.Close())

	b := locker(t, second)
	_, err = b.TryLock(ctx(t), "t1", "heir", ttl)
	requireBusy(t, err, "t1", "dead owner")
	var heir *checkpoint.Lease
	for deadline := time.Now().Add(10 * time.Second); heir == nil; time.Sleep(20 * time.Millisecond) {
		require.True(t, time.Now().Before(deadline), "the dead owner's lease of %s has not expired in 10 s", ttl)
		heir, err = b.TryLock(ctx(t), "t1", "heir", ttl)
		if err != nil {
			requireBusy(t, err, "t1", "dead owner")
		}
	}
	release(t, heir)
	assert.GreaterOrEqual(t, time.Since(taken), ttl/2, "the lease lasted about its ttl, not less")

	select {
	case <-dead.Lost():
		assert.ErrorContains(t, dead.Err(), "could not be renewed")
	case <-time.After(10 * time.Second):
		t.Fatal("the lease of a closed store is not lost")
	}
	_ = dead.Release() // its store is closed: freeing fails, and must not free the heir's
	_, err = b.TryLock(ctx(t), "t1", "third", ttl)
	requireBusy(t, err, "t1", "heir")
}

func testSharedCheckpoints(t *testing.T, first, second checkpoint.Store) {
	cp := put(t, first, newCheckpoint("t1", 0))
	got, err := second.Latest(ctx(t), "t1")
	require.NoError(t, err)
	assert.Equal(t, cp.ID, got.ID)
}
