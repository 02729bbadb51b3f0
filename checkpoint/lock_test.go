package checkpoint

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The memory store's leases cannot outlive a process, so the shared
// conformance tests do not apply; these check its expiry from inside.

// expire makes thread's lease expired now, as if its owner had stopped
// renewing it a ttl ago.
func (p *procLocker) expire(thread string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	h := p.held[thread]
	h.expires = time.Now().Add(-time.Millisecond)
	p.held[thread] = h
}

func TestLeaseOfDeadOwnerExpires(t *testing.T) {
	p := newProcLocker("test")
	ctx := context.Background()
	dead, err := p.TryLock(ctx, "t1", "dead owner", time.Minute)
	require.NoError(t, err)
	close(dead.stop) // the owner dies: no renewal, no release
	<-dead.kept

	_, err = p.TryLock(ctx, "t1", "heir", time.Minute)
	require.ErrorIs(t, err, ErrBusy, "an unexpired lease holds")
	p.expire("t1")
	heir, err := p.TryLock(ctx, "t1", "heir", time.Minute)
	require.NoError(t, err, "an expired lease is free")
	defer heir.Release()
}

func TestLeaseTakenOverIsLost(t *testing.T) {
	p := newProcLocker("test")
	ctx := context.Background()
	first, err := p.TryLock(ctx, "t1", "first", 90*time.Millisecond)
	require.NoError(t, err)
	defer first.Release()
	p.expire("t1") // e.g. the process stalled past its ttl
	second, err := p.TryLock(ctx, "t1", "second", time.Minute)
	require.NoError(t, err)
	defer second.Release()

	select {
	case <-first.Lost():
		assert.ErrorContains(t, first.Err(), "another owner took the thread")
	case <-time.After(5 * time.Second):
		t.Fatal("a lease taken over is not lost")
	}
	require.NoError(t, first.Release())
	_, err = p.TryLock(ctx, "t1", "third", time.Minute)
	var busy *BusyError
	require.ErrorAs(t, err, &busy, "the first owner's release leaves the second's lease alone")
	assert.Equal(t, "second", busy.Holder)
}

func TestMemoryCloseLosesLeases(t *testing.T) {
	m := NewMemory()
	l, err := m.(Locker).TryLock(context.Background(), "t1", "owner", 90*time.Millisecond)
	require.NoError(t, err)
	require.NoError(t, m.Close())
	select {
	case <-l.Lost():
	case <-time.After(5 * time.Second):
		t.Fatal("the lease of a closed store is not lost")
	}
	_ = l.Release()
	_, err = m.(Locker).TryLock(context.Background(), "t1", "owner", time.Minute)
	require.ErrorContains(t, err, "store is closed")
}
