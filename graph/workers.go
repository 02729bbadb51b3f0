package graph

import (
	"sync"
	"sync/atomic"
	"time"
)

// Parallel branches run on goroutines that outlive them for a moment. A
// new goroutine starts on a small stack, and a node's call is deep enough
// (runNode, body, observe, the middleware, the node) to grow it once or
// twice, each time copying it: that was a fifth of a fused ten-branch
// fan-out. A goroutine that ran a branch waits workerIdle for the next one,
// with the stack it grew, and then ends, so an idle process keeps none.

// workerIdle is how long a goroutine that ran a branch waits for another.
const workerIdle = 50 * time.Millisecond

// handoff passes a branch to a waiting goroutine.
var handoff = make(chan func())

// spawn runs f on a waiting goroutine, or on a new one when none waits.
func spawn(f func()) {
	select {
	case handoff <- f:
	default:
		go work(f)
	}
}

func work(f func()) {
	t := time.NewTimer(workerIdle)
	defer t.Stop()
	for {
		f()
		t.Reset(workerIdle)
		select {
		case f = <-handoff:
		case <-t.C:
			return
		}
	}
}

// shareAfter is how long quick parallel branches run one after another
// before the rest are handed to other goroutines (shareOut).
const shareAfter = 100 * time.Microsecond

// shareOut runs run(0) … run(n-1) and returns when all have returned.
// This goroutine takes the next index until none is left. Waking another
// goroutine costs more than a quick branch (ten of them took twice as
// long as one after another), so helpers start only once the runs have
// taken shareAfter: then each goroutine that takes an index, while others
// are left, first wakes a helper that does the same, unless one is on its
// way. A run that blocks thus never keeps the others waiting longer than
// shareAfter and a wake-up each, and quick ones wake no goroutine at all.
func shareOut(n int, run func(i int)) {
	var next, waking atomic.Int64
	var eager atomic.Bool // the runs took shareAfter: helpers wake at once
	var wg sync.WaitGroup
	wg.Add(n)
	var take func()
	wake := func() {
		if waking.CompareAndSwap(0, 1) {
			spawn(func() {
				waking.Store(0)
				take()
			})
		}
	}
	take = func() {
		for {
			i := int(next.Add(1) - 1)
			if i >= n {
				return
			}
			if i+1 < n && eager.Load() {
				wake()
			}
			run(i)
			wg.Done()
		}
	}
	t := time.AfterFunc(shareAfter, func() {
		eager.Store(true)
		if next.Load() < int64(n) {
			wake()
		}
	})
	take()
	t.Stop()
	wg.Wait()
}
