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

// shareOut runs run(0) … run(n-1) and returns when all have returned.
// This goroutine takes the next index until none is left; before it runs
// one, it wakes a helper that does the same, unless one is already on its
// way. Every index that has been taken while others are left has thus
// woken a goroutine that may take the next: a run that blocks never keeps
// the others waiting (a slow branch has its own goroutine at once), while
// quick ones are done before the helper starts, which then finds nothing.
// Ten quick branches wake one goroutine instead of nine.
func shareOut(n int, run func(i int)) {
	var next, waking atomic.Int64
	var wg sync.WaitGroup
	wg.Add(n)
	var take func()
	take = func() {
		for {
			i := int(next.Add(1) - 1)
			if i >= n {
				return
			}
			if i+1 < n && waking.CompareAndSwap(0, 1) {
				spawn(func() {
					waking.Store(0)
					take()
				})
			}
			run(i)
			wg.Done()
		}
	}
	take()
	wg.Wait()
}
