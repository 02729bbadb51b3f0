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

func TestFallback(t *testing.T) {
	boom := errors.New("boom")
	fails := func(ctx context.Context, s *state) (*state, error) {
		s.Path = append(s.Path, "half-done") // the fallback must not see this
		Goto(ctx, "b")
		return s, boom
	}
	var seen error
	rescue := func(ctx context.Context, s *state) (*state, error) {
		seen = ErrorOf(ctx)
		s.Path = append(s.Path, "rescue")
		return s, nil
	}
	retried := 0
	flaky := func(ctx context.Context, s *state) (*state, error) {
		retried = Attempt(ctx)
		return s, boom
	}
	for _, tc := range []struct {
		name    string
		fn      NodeFunc[*state]
		opts    []NodeOption
		path    string
		err     string // of the fallback's ErrorOf
		retries int
	}{
		{"success takes the edges", visit("a"), nil, "a b", "", 0},
		{"failure goes to the fallback, not the edges or gotos", fails, []NodeOption{WithDestinations("b")}, "rescue b", "boom", 0},
		{"after the retries", flaky, []NodeOption{WithRetry(RetryPolicy{MaxAttempts: 3, InitialInterval: time.Millisecond})}, "rescue b", "after 3 attempts: boom", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			seen, retried = nil, 0
			opts := append([]NodeOption{WithFallback("rescue")}, tc.opts...)
			out, err := run(t, New[*state]("g").AddNode("a", tc.fn, opts...).AddNode("rescue", rescue).AddNode("b", visit("b")).
				AddEdge(START, "a").AddEdge("a", "b").AddEdge("rescue", "b").AddEdge("b", END))
			require.NoError(t, err)
			assert.Equal(t, tc.path, strings.Join(out.Path, " "))
			if tc.err == "" {
				assert.NoError(t, seen)
			} else {
				assert.ErrorIs(t, seen, boom)
				assert.EqualError(t, seen, tc.err)
			}
			assert.Equal(t, tc.retries, retried)
		})
	}
}

func TestFallbackInALoop(t *testing.T) {
	// a fails on its second pass only: the failure of one step must not be
	// taken for another's.
	passes := 0
	a := func(_ context.Context, s *state) (*state, error) {
		passes++
		if passes == 2 {
			return s, errors.New("second pass")
		}
		s.Path = append(s.Path, "a")
		return s, nil
	}
	again := func(_ context.Context, s *state) (string, error) {
		if len(s.Path) < 3 {
			return "again", nil
		}
		return "done", nil
	}
	out, err := run(t, New[*state]("g").AddNode("a", a, WithFallback("rescue")).AddNode("rescue", visit("rescue")).
		AddEdge(START, "a").AddConditionalEdges("a", ByFunc(again), map[string]string{"again": "a", "done": END}).
		AddEdge("rescue", "a"))
	require.NoError(t, err)
	assert.Equal(t, "a rescue a", strings.Join(out.Path, " "))
	assert.Equal(t, 3, passes)
}

func TestFallbackCompileErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		graph *StateGraph[*state]
		err   string
	}{
		{"unknown node", New[*state]("g").AddNode("a", visit("a"), WithFallback("nope")).AddEdge(START, "a").AddEdge("a", END),
			`node "a": WithFallback("nope"): no such node`},
		{"itself", New[*state]("g").AddNode("a", visit("a"), WithFallback("a")).AddEdge(START, "a").AddEdge("a", END),
			`node "a": WithFallback names the node itself`},
		{"inside parallel branches", New[*state]("g").AddNode("f", visit("f")).AddNode("a", visit("a"), WithFallback("r")).
			AddNode("b", visit("b")).AddNode("r", visit("r")).AddNode("j", visit("j")).
			AddEdge(START, "f").AddEdge("f", "a").AddEdge("f", "b").AddEdge("a", "j").AddEdge("b", "j").AddEdge("r", END).AddEdge("j", END),
			`node "a": WithFallback inside parallel branches is not supported`},
		{"as a default", New[*state]("g").AddNode("a", visit("a")).AddEdge(START, "a").AddEdge("a", END),
			"node defaults: WithDestinations, WithFallback and WithDefer belong to one node"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.graph.Compile(context.Background(), WithNodeDefaults(func() []NodeOption {
				if tc.name == "as a default" {
					return []NodeOption{WithFallback("a")}
				}
				return nil
			}()...))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.err)
		})
	}
}

func TestFallbackMermaid(t *testing.T) {
	g := New[*state]("g").AddNode("a", visit("a"), WithFallback("r")).AddNode("r", visit("r")).
		AddEdge(START, "a").AddEdge("a", END).AddEdge("r", END)
	assert.Contains(t, g.Mermaid(), `a -. "on error" .-> r`)
}
