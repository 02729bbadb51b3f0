package server

import (
	"context"

	"github.com/prometheus/client_golang/prometheus"
)

// slots bound the turns the server runs at once; a turn waits for a slot
// in the order it came. A CPU-bound turn (the offline engine) gains nothing
// from running beside more turns than the cores can take: time-sliced,
// every turn takes longer and the unluckiest take much longer. Waiting in
// line, a turn is done in about the time of the turns ahead of it.
type slots struct {
	free    chan struct{} // nil: no bound
	waiting prometheus.Gauge
}

// newSlots makes n slots; n ≤ 0 is no bound.
func newSlots(n int, waiting prometheus.Gauge) slots {
	s := slots{waiting: waiting}
	if n > 0 {
		s.free = make(chan struct{}, n)
	}
	return s
}

// take waits for a slot until ctx ends. Blocked senders on a channel are
// woken first in, first out: turns get their slots in arrival order.
func (s slots) take(ctx context.Context) (release func(), err error) {
	if s.free == nil {
		return func() {}, nil
	}
	select {
	case s.free <- struct{}{}:
		return func() { <-s.free }, nil
	default:
	}
	s.waiting.Inc()
	defer s.waiting.Dec()
	select {
	case s.free <- struct{}{}:
		return func() { <-s.free }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
