package graph

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// concat is the merge a user writes first: the base, then what each branch
// added to it. Given only the branches, it had to start from one of them
// or from nothing, and the state before the fan-out came out twice.
func concat(_ context.Context, base *state, branches []*state) (*state, error) {
	n := len(base.Path)
	for _, b := range branches {
		if len(b.Path) < n {
			return nil, fmt.Errorf("branch %v is shorter than the base %v", b.Path, base.Path[:n])
		}
		base.Path = append(base.Path, b.Path[n:]...)
	}
	return base, nil
}

func TestWithMergeGetsTheBase(t *testing.T) {
	keys := func(context.Context, *state) ([]string, error) { return []string{"b", "c"}, nil }
	twice := func(_ context.Context, s *state) ([]Send[*state], error) {
		return []Send[*state]{{Key: "w", State: s}, {Key: "w", State: s}}, nil
	}
	for _, tc := range []struct {
		name  string
		graph *StateGraph[*state]
		want  []string
	}{
		{"a join of edges", New[*state]("edges").
			AddNode("a", visit("a")).AddNode("b", visit("b")).AddNode("c", visit("c")).AddNode("j", visit("j")).
			AddEdge(START, "a").AddEdge("a", "b").AddEdge("a", "c").AddEdge("b", "j").AddEdge("c", "j").AddEdge("j", END),
			[]string{"a", "b", "c", "j"}},
		{"a join of keys", New[*state]("keys").
			AddNode("a", visit("a")).AddNode("b", visit("b")).AddNode("c", visit("c")).AddNode("j", visit("j")).
			AddEdge(START, "a").AddConditionalEdges("a", ByKeys(keys), map[string]string{"b": "b", "c": "c"}).
			AddEdge("b", "j").AddEdge("c", "j").AddEdge("j", END),
			[]string{"a", "b", "c", "j"}},
		{"sends of the router's state", New[*state]("sends").
			AddNode("a", visit("a")).AddNode("w", visit("w")).AddNode("j", visit("j")).
			AddEdge(START, "a").AddConditionalEdges("a", BySend(twice), map[string]string{"w": "w"}).
			AddEdge("w", "j").AddEdge("j", END),
			[]string{"a", "w", "w", "j"}},
		{"two joins from one fork: the first merge may change its base", New[*state]("nested").
			AddNode("a", visit("a")).AddNode("b", visit("b")).AddNode("c", visit("c")).AddNode("d", visit("d")).
			AddNode("j1", visit("j1")).AddNode("j2", visit("j2")).
			AddEdge(START, "a").AddEdge("a", "b").AddEdge("a", "c").AddEdge("a", "d").
			AddEdge("b", "j1").AddEdge("c", "j1").AddEdge("j1", "j2").AddEdge("d", "j2").AddEdge("j2", END),
			[]string{"a", "b", "c", "j1", "d", "j2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := run(t, tc.graph, WithMerge(concat))
			require.NoError(t, err)
			assert.Equal(t, tc.want, out.Path, "the state before the fan-out once, then each branch's own")
		})
	}
}
