package server

import "sync"

// runningTurns are the session turns this replica runs, by holder, with
// the means to stop each: a request on the same replica that interrupts
// or rolls back a turn stops it at once, without the stop lease's polling
// (which remains for a turn another replica runs).
type runningTurns struct {
	mu    sync.Mutex
	stops map[string]func(*turnStopped)
}

func newRunningTurns() *runningTurns {
	return &runningTurns{stops: map[string]func(*turnStopped){}}
}

// add registers holder's turn; the returned function removes it.
func (t *runningTurns) add(holder string, stop func(*turnStopped)) (remove func()) {
	t.mu.Lock()
	t.stops[holder] = stop
	t.mu.Unlock()
	return func() {
		t.mu.Lock()
		delete(t.stops, holder)
		t.mu.Unlock()
	}
}

// stop stops holder's turn if this replica runs it, and says whether it did.
func (t *runningTurns) stop(holder string, why *turnStopped) bool {
	t.mu.Lock()
	stop, ok := t.stops[holder]
	t.mu.Unlock()
	if ok {
		stop(why)
	}
	return ok
}
