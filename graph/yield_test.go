package graph

import (
	"context"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestYielding runs a two-node graph on one processor; node a makes
// another goroutine ready to run, and only a run under Yielding lets it in
// before node b.
func TestYielding(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for _, tc := range []struct {
		name  string
		yield bool
		order string
	}{
		{"a lone run keeps the processor", false, "a b other"},
		{"a yielding run lets others in between nodes", true, "a other b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The scheduler takes from the global queue first once in 61
			// turns, so a yield may hand the processor straight back: a
			// yielding run gets three tries to let the other goroutine in.
			tries := 1
			if tc.yield {
				tries = 3
			}
			var got string
			for range tries {
				if got = yieldOrder(t, tc.yield); got == tc.order {
					break
				}
			}
			assert.Equal(t, tc.order, got)
		})
	}
}

// yieldOrder runs a then b, where a makes another goroutine ready, and
// says in which order the three ran.
func yieldOrder(t *testing.T, yield bool) string {
	var mu sync.Mutex
	var order []string
	note := func(s string) {
		mu.Lock()
		order = append(order, s)
		mu.Unlock()
	}
	release, other := make(chan struct{}), make(chan struct{})
	go func() { <-release; note("other"); close(other) }()
	node := func(name string) NodeFunc[*state] {
		return func(_ context.Context, s *state) (*state, error) {
			note(name)
			if name == "a" {
				close(release) // ready, but this goroutine keeps the processor
			}
			return s, nil
		}
	}
	r, err := New[*state]("yield").AddNode("a", node("a")).AddNode("b", node("b")).
		AddEdge(START, "a").AddEdge("a", "b").AddEdge("b", END).Compile(context.Background())
	require.NoError(t, err)
	ctx := context.Background()
	if yield {
		ctx = Yielding(ctx)
	}
	_, err = r.Invoke(ctx, &state{})
	<-other
	require.NoError(t, err)
	mu.Lock()
	defer mu.Unlock()
	return strings.Join(order, " ")
}
