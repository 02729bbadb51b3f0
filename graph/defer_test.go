package graph

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/checkpoint"
)

func TestDefer(t *testing.T) {
	var runs atomic.Int32
	last := func(_ context.Context, s *state) (*state, error) {
		runs.Add(1)
		s.Path = append(s.Path, "D")
		return s, nil
	}
	some := func(_ context.Context, _ *state) ([]string, error) { return []string{"a", "b1"}, nil }
	two := func(_ context.Context, s *state) ([]Send[*state], error) {
		return []Send[*state]{{Key: "w", State: s.Clone()}, {Key: "w", State: s.Clone()}}, nil
	}
	for _, tc := range []struct {
		name  string
		graph func() *StateGraph[*state]
		path  string
		count int
	}{
		{"alone it runs at once", func() *StateGraph[*state] {
			return New[*state]("g").AddNode("a", visit("a")).AddNode("D", last, WithDefer()).
				AddEdge(START, "a").AddEdge("a", "D").AddEdge("D", END)
		}, "a D", 0},
		{"branches of different length", func() *StateGraph[*state] {
			return New[*state]("g").AddNode("f", visit("f")).AddNode("a", visit("a")).
				AddNode("b1", visit("b1")).AddNode("b2", visit("b2")).AddNode("D", last, WithDefer()).
				AddEdge(START, "f").AddEdge("f", "a").AddEdge("f", "b1").AddEdge("b1", "b2").
				AddEdge("a", "D").AddEdge("b2", "D").AddEdge("D", END)
		}, "f a b1 b2 D", 0},
		{"a router that picks some branches", func() *StateGraph[*state] {
			return New[*state]("g").AddNode("f", visit("f")).AddNode("a", visit("a")).
				AddNode("b1", visit("b1")).AddNode("b2", visit("b2")).AddNode("c", visit("c")).AddNode("D", last, WithDefer()).
				AddEdge(START, "f").
				AddConditionalEdges("f", ByKeys(some), map[string]string{"a": "a", "b1": "b1", "c": "c"}).
				AddEdge("b1", "b2").AddEdge("a", "D").AddEdge("b2", "D").AddEdge("c", "D").AddEdge("D", END)
		}, "f a b1 b2 D", 0},
		{"Sends beside a longer branch", func() *StateGraph[*state] {
			count := func(_ context.Context, s *state) (*state, error) { s.Count++; return s, nil }
			return New[*state]("g").AddNode("f", visit("f")).AddNode("x1", visit("x1")).AddNode("x2", visit("x2")).
				AddNode("s", visit("s")).AddNode("w", count).AddNode("D", last, WithDefer()).
				AddEdge(START, "f").AddEdge("f", "x1").AddEdge("f", "s").AddEdge("x1", "x2").
				AddConditionalEdges("s", BySend(two), map[string]string{"w": "w"}).
				AddEdge("x2", "D").AddEdge("w", "D").AddEdge("D", END)
		}, "f x1 x2 s D", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runs.Store(0)
			out, err := run(t, tc.graph())
			require.NoError(t, err)
			assert.Equal(t, tc.path, strings.Join(out.Path, " "))
			assert.Equal(t, tc.count, out.Count)
			assert.EqualValues(t, 1, runs.Load(), "the deferred node runs once")
		})
	}
}

func TestDeferStranded(t *testing.T) {
	_, err := run(t, New[*state]("g").AddNode("f", visit("f")).AddNode("a", visit("a")).AddNode("b", visit("b")).
		AddNode("c", visit("c")).AddNode("D", visit("D"), WithDefer()).
		AddEdge(START, "f").AddEdge("f", "a").AddEdge("f", "b").AddEdge("a", "D").AddEdge("b", "c").
		AddEdge("c", END).AddEdge("D", END))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `deferred node "D" had not run when the run reached END`)
}

// A deferred node waits for a branch that paused: it does not run while
// the branch waits for input, and after Resume it still merges what
// reached it before the pause (a Send's runs included) with the branch.
func TestDeferWaitsAcrossResume(t *testing.T) {
	ctx := context.Background()
	two := func(_ context.Context, s *state) ([]Send[*state], error) {
		return []Send[*state]{{Key: "w", State: s.Clone()}, {Key: "w", State: s.Clone()}}, nil
	}
	count := func(_ context.Context, s *state) (*state, error) { s.Count++; return s, nil }
	for _, tc := range []struct {
		name  string
		graph func(last NodeFunc[*state], asked *atomic.Int32) *StateGraph[*state]
		path  []string
		count int
	}{
		{"branches of different length", func(last NodeFunc[*state], asked *atomic.Int32) *StateGraph[*state] {
			return New[*state]("g").AddNode("f", visit("f")).AddNode("a", visit("a")).
				AddNode("b1", asker("b1", asked)).AddNode("b2", visit("b2")).AddNode("D", last, WithDefer()).
				AddEdge(START, "f").AddEdge("f", "a").AddEdge("f", "b1").AddEdge("b1", "b2").
				AddEdge("a", "D").AddEdge("b2", "D").AddEdge("D", END)
		}, []string{"f", "a", "b1", "b2", "D"}, 0},
		{"Sends beside a branch that asks", func(last NodeFunc[*state], asked *atomic.Int32) *StateGraph[*state] {
			return New[*state]("g").AddNode("f", visit("f")).AddNode("x1", asker("x1", asked)).AddNode("x2", visit("x2")).
				AddNode("s", visit("s")).AddNode("w", count).AddNode("D", last, WithDefer()).
				AddEdge(START, "f").AddEdge("f", "x1").AddEdge("f", "s").AddEdge("x1", "x2").
				AddConditionalEdges("s", BySend(two), map[string]string{"w": "w"}).
				AddEdge("x2", "D").AddEdge("w", "D").AddEdge("D", END)
		}, []string{"f", "x1", "x2", "s", "D"}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			forEachStore(t, func(t *testing.T, store checkpoint.Store) {
				var runs, asked atomic.Int32
				last := func(_ context.Context, s *state) (*state, error) {
					runs.Add(1)
					s.Path = append(s.Path, "D")
					return s, nil
				}
				r, err := tc.graph(last, &asked).Compile(ctx, WithCheckpointer(store))
				require.NoError(t, err)
				_, err = r.Invoke(ctx, &state{}, WithThread("t"))
				var paused *InterruptError
				require.ErrorAs(t, err, &paused, "the run waits for the branch that asked")
				assert.EqualValues(t, 0, runs.Load(), "the deferred node waits for the paused branch")

				out, err := r.Resume(ctx, "t", "ann")
				require.NoError(t, err)
				assert.Equal(t, tc.path, out.Path)
				assert.Equal(t, "ann", out.Owner)
				assert.Equal(t, tc.count, out.Count, "the Sends' work done before the pause is kept")
				assert.EqualValues(t, 1, runs.Load(), "the deferred node runs once")
				assert.EqualValues(t, 2, asked.Load())
			})
		})
	}
}
