package graph

import "time"

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
