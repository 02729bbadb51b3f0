package graph

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// steps records the steps left as a node's name and the count.
func steps(name string) NodeFunc[*state] {
	return func(ctx context.Context, s *state) (*state, error) {
		s.Path = append(s.Path, fmt.Sprintf("%s%d", name, RemainingSteps(ctx)))
		return s, nil
	}
}

func TestRemainingSteps(t *testing.T) {
	sub, err := New[*state]("sub").AddNode("s", steps("s")).AddEdge(START, "s").AddEdge("s", END).
		Compile(context.Background(), WithMaxSteps(7))
	require.NoError(t, err)
	untilLast := func(_ context.Context, s *state) (string, error) {
		if strings.HasSuffix(s.Path[len(s.Path)-1], "a1") {
			return "stop", nil
		}
		return "again", nil
	}
	for _, tc := range []struct {
		name  string
		graph *StateGraph[*state]
		path  string
	}{
		{"one a step", New[*state]("g").AddNode("a", steps("a")).AddNode("b", steps("b")).AddNode("c", steps("c")).
			AddEdge(START, "a").AddEdge("a", "b").AddEdge("b", "c").AddEdge("c", END), "a5 b4 c3"},
		{"parallel branches share a step", New[*state]("g").AddNode("f", steps("f")).AddNode("x", steps("x")).
			AddNode("y", steps("y")).AddNode("j", steps("j")).
			AddEdge(START, "f").AddEdge("f", "x").AddEdge("f", "y").AddEdge("x", "j").AddEdge("y", "j").AddEdge("j", END),
			"f5 x4 y4 j3"},
		{"a loop that stops at the last step", New[*state]("g").AddNode("a", steps("a")).
			AddEdge(START, "a").AddConditionalEdges("a", ByFunc(untilLast), map[string]string{"again": "a", "stop": END}),
			"a5 a4 a3 a2 a1"},
		{"a subgraph counts its own", New[*state]("g").AddNode("a", steps("a")).AddNode("sub", Subgraph(sub)).
			AddEdge(START, "a").AddEdge("a", "sub").AddEdge("sub", END), "a5 s7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := run(t, tc.graph, WithMaxSteps(5))
			require.NoError(t, err)
			assert.Equal(t, tc.path, strings.Join(out.Path, " "))
		})
	}
	assert.Equal(t, -1, RemainingSteps(context.Background()))
}

type user struct{ ID string }

func TestContextOf(t *testing.T) {
	who := func(name string) NodeFunc[*state] {
		return func(ctx context.Context, s *state) (*state, error) {
			u, ok := ContextOf[user](ctx)
			_, wrong := ContextOf[string](ctx)
			s.Path = append(s.Path, fmt.Sprintf("%s:%s:%v:%v", name, u.ID, ok, wrong))
			return s, nil
		}
	}
	sub, err := New[*state]("sub").AddNode("s", who("s")).AddEdge(START, "s").AddEdge("s", END).Compile(context.Background())
	require.NoError(t, err)
	r, err := New[*state]("g").AddNode("a", who("a")).AddNode("sub", Subgraph(sub)).
		AddEdge(START, "a").AddEdge("a", "sub").AddEdge("sub", END).Compile(context.Background())
	require.NoError(t, err)
	for _, tc := range []struct {
		name string
		opts []RunOption
		path string
	}{
		{"given", []RunOption{WithContext(user{"ann"})}, "a:ann:true:false s:ann:true:false"},
		{"none", nil, "a::false:false s::false:false"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := r.Invoke(context.Background(), &state{}, tc.opts...)
			require.NoError(t, err)
			assert.Equal(t, tc.path, strings.Join(out.Path, " "))
		})
	}
}
