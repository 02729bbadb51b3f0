package graph

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hop records its name and names the next nodes.
func hop(name string, next ...string) NodeFunc[*state] {
	return func(ctx context.Context, s *state) (*state, error) {
		s.Path = append(s.Path, name)
		Goto(ctx, next...)
		return s, nil
	}
}

func TestGoto(t *testing.T) {
	flaky := func(ctx context.Context, s *state) (*state, error) {
		if Attempt(ctx) == 1 {
			Goto(ctx, "b")
			return s, errors.New("first attempt fails")
		}
		s.Path = append(s.Path, "a")
		Goto(ctx, "c")
		return s, nil
	}
	loop := func(ctx context.Context, s *state) (*state, error) {
		s.Count++
		s.Path = append(s.Path, "a")
		if s.Count < 3 {
			Goto(ctx, "a")
		} else {
			Goto(ctx, END)
		}
		return s, nil
	}
	for _, tc := range []struct {
		name  string
		graph func() *StateGraph[*state]
		path  string
		err   []string // what the run's error names
	}{
		{"goto picks the next node", func() *StateGraph[*state] {
			return New[*state]("g").AddNode("a", hop("a", "c"), WithDestinations("b", "c")).
				AddNode("b", visit("b")).AddNode("c", visit("c")).
				AddEdge(START, "a").AddEdge("b", END).AddEdge("c", END)
		}, "a c", nil},
		{"goto and an edge both run", func() *StateGraph[*state] {
			return New[*state]("g").AddNode("a", hop("a", "y"), WithDestinations("y")).
				AddNode("x", visit("x")).AddNode("y", visit("y")).AddNode("j", visit("j")).
				AddEdge(START, "a").AddEdge("a", "x").
				AddEdge("x", "j").AddEdge("y", "j").AddEdge("j", END)
		}, "a x y j", nil},
		{"goto END ends the run", func() *StateGraph[*state] {
			return New[*state]("g").AddNode("a", hop("a", END), WithDestinations("b", END)).AddNode("b", visit("b")).
				AddEdge(START, "a").AddEdge("b", END)
		}, "a", nil},
		{"a loop by goto", func() *StateGraph[*state] {
			return New[*state]("g").AddNode("a", loop, WithDestinations("a", END)).AddEdge(START, "a")
		}, "a a a", nil},
		{"a failed attempt's goto is forgotten", func() *StateGraph[*state] {
			return New[*state]("g").
				AddNode("a", flaky, WithDestinations("b", "c"), WithRetry(RetryPolicy{MaxAttempts: 2, InitialInterval: time.Millisecond})).
				AddNode("b", visit("b")).AddNode("c", visit("c")).
				AddEdge(START, "a").AddEdge("b", END).AddEdge("c", END)
		}, "a c", nil},
		{"a goto to a node not declared", func() *StateGraph[*state] {
			return New[*state]("g").AddNode("a", hop("a", "c"), WithDestinations("b")).
				AddNode("b", visit("b")).AddNode("c", visit("c")).
				AddEdge(START, "a").AddEdge("b", END).AddEdge("c", END)
		}, "", []string{`node "a"`, `Goto "c"`, "WithDestinations"}},
		{"no edge and no goto", func() *StateGraph[*state] {
			return New[*state]("g").AddNode("a", visit("a"), WithDestinations("b")).AddNode("b", visit("b")).
				AddEdge(START, "a").AddEdge("b", END)
		}, "", []string{`node "a" has no edge out and named no next node`}},
		{"goto END beside an edge", func() *StateGraph[*state] {
			return New[*state]("g").AddNode("a", hop("a", END), WithDestinations(END)).AddNode("b", visit("b")).
				AddEdge(START, "a").AddEdge("a", "b").AddEdge("b", END)
		}, "", []string{`node "a": Goto END beside its edges`}},
		{"goto in a node without destinations", func() *StateGraph[*state] {
			return New[*state]("g").AddNode("a", hop("a", "b")).AddNode("b", visit("b")).
				AddEdge(START, "a").AddEdge("a", END)
		}, "", []string{`node "a"`, `Goto "b"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := run(t, tc.graph())
			if tc.err != nil {
				require.Error(t, err)
				for _, want := range tc.err {
					assert.Contains(t, err.Error(), want)
				}
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.path, strings.Join(out.Path, " "))
		})
	}
}

func TestWithDestinationsUnknownNode(t *testing.T) {
	_, err := New[*state]("g").AddNode("a", hop("a", "b"), WithDestinations("b", "nope")).AddNode("b", visit("b")).
		AddEdge(START, "a").AddEdge("b", END).Compile(context.Background())
	require.Error(t, err)
	assert.Contains(t, err.Error(), `node "a": WithDestinations names unknown node "nope"`)
}

func TestGotoMermaid(t *testing.T) {
	g := New[*state]("g").AddNode("a", hop("a", "b"), WithDestinations("b", END)).AddNode("b", visit("b")).
		AddEdge(START, "a").AddEdge("b", END)
	assert.Contains(t, g.Mermaid(), `a -. "goto" .-> b`)
	assert.Contains(t, g.Mermaid(), `a -. "goto" .-> END`)
}

func TestGotoParent(t *testing.T) {
	leave := func(ctx context.Context, s *state) (*state, error) {
		s.Path = append(s.Path, "s1")
		GotoParent(ctx, "done")
		return s, nil
	}
	sub, err := New[*state]("sub").AddNode("s1", leave).AddNode("s2", visit("s2")).
		AddEdge(START, "s1").AddEdge("s1", "s2").AddEdge("s2", END).Compile(context.Background())
	require.NoError(t, err)
	for _, tc := range []struct {
		name  string
		dests []string
		path  string
		err   string
	}{
		{"the parent goes on at the named node", []string{"done", "other"}, "s1 done", ""},
		{"a node the parent's node does not declare", []string{"other"}, "", `GotoParent "done": not among the destinations of the parent's node "sub"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := run(t, New[*state]("parent").AddNode("sub", Subgraph(sub), WithDestinations(tc.dests...)).
				AddNode("done", visit("done")).AddNode("other", visit("other")).
				AddEdge(START, "sub").AddEdge("done", END).AddEdge("other", END))
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.path, strings.Join(out.Path, " "))
		})
	}
	t.Run("a graph that is no subgraph", func(t *testing.T) {
		_, err := sub.Invoke(context.Background(), &state{})
		require.Error(t, err)
		assert.Contains(t, err.Error(), `node "s1": GotoParent [done]: its graph is not running as a subgraph`)
	})
}
