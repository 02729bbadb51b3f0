package graph

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/tables"
)

// note returns a node that appends its name to the state's notes, so a test
// can read the path a run took.
func note(name string) NodeFunc {
	return func(_ context.Context, s *contracts.ChatState) (*contracts.ChatState, error) {
		s.Diagnostics.Notes = append(s.Diagnostics.Notes, contracts.NodeNote{Node: name})
		return s, nil
	}
}

func path(s *contracts.ChatState) string {
	var p []string
	for _, n := range s.Diagnostics.Notes {
		p = append(p, n.Node)
	}
	return strings.Join(p, " ")
}

func TestLinearGraphRecordsTimings(t *testing.T) {
	slow := func(ctx context.Context, s *contracts.ChatState) (*contracts.ChatState, error) {
		time.Sleep(5 * time.Millisecond)
		return note("a")(ctx, s)
	}
	g := New("linear").AddNode("a", slow).AddNode("b", note("b")).
		AddEdge(START, "a").AddEdge("a", "b").AddEdge("b", END)
	r, err := g.Compile(context.Background())
	require.NoError(t, err)
	out, err := r.Invoke(context.Background(), &contracts.ChatState{})
	require.NoError(t, err)
	assert.Equal(t, "a b", path(out))
	require.Len(t, out.Diagnostics.Nodes, 2)
	assert.Equal(t, "a", out.Diagnostics.Nodes[0].Node)
	assert.GreaterOrEqual(t, out.Diagnostics.Nodes[0].DurationMS, 5.0, "a node's own time is measured")
}

// retryGraph loops work → check → work until RetryCount reaches limit.
func retryGraph(limit int) *StateGraph {
	g := New("retry")
	g.AddNode("work", note("work"))
	g.AddNode("check", func(_ context.Context, s *contracts.ChatState) (*contracts.ChatState, error) {
		s.RetryCount++
		return s, nil
	})
	g.AddEdge(START, "work").AddEdge("work", "check")
	g.AddConditionalEdges("check", func(_ context.Context, s *contracts.ChatState) (string, error) {
		if s.RetryCount >= limit {
			return "done", nil
		}
		return "again", nil
	}, map[string]string{"again": "work", "done": END})
	return g
}

func TestConditionalLoop(t *testing.T) {
	tests := []struct {
		limit    int
		maxSteps int
		wantPath string
		wantErr  error
	}{
		{1, 10, "work", nil},
		{3, 10, "work work work", nil},
		{10, 10, "", ErrMaxSteps}, // the loop needs 20 steps
		{10, 40, strings.TrimSpace(strings.Repeat("work ", 10)), nil},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("limit %d steps %d", tc.limit, tc.maxSteps), func(t *testing.T) {
			r, err := retryGraph(tc.limit).Compile(context.Background(), WithMaxSteps(tc.maxSteps))
			require.NoError(t, err)
			out, err := r.Invoke(context.Background(), &contracts.ChatState{})
			if tc.wantErr != nil {
				assert.ErrorIs(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.wantPath, path(out))
		})
	}
}

func TestTableEdges(t *testing.T) {
	set, err := tables.Standard(tables.DefaultConfig())
	require.NoError(t, err)
	dt2, err := set.Get("DT-002")
	require.NoError(t, err)
	g := New("route")
	g.AddNode("plan", note("plan"))
	for _, n := range []string{"agent", "ask", "refuse", "guard_refuse"} {
		g.AddNode(n, note(n)).AddEdge(n, END)
	}
	g.AddEdge(START, "plan")
	g.AddTableEdges("plan", dt2, func(s *contracts.ChatState) map[string]any {
		return map[string]any{"spam_score": s.Plan.SpamScore, "intent_confidence": s.Plan.IntentConfidence, "guardian_level": string(s.Moderation.Level)}
	}, "action", map[string]string{"normal": "agent", "clarify": "ask", "block": "refuse", "guardian_block": "guard_refuse"})
	r, err := g.Compile(context.Background())
	require.NoError(t, err)

	tests := []struct {
		spam, conf float64
		level      contracts.SafetyLevel
		want       string
	}{
		{0.2, 0.9, contracts.LevelSafe, "plan agent"},
		{0.2, 0.59, contracts.LevelSafe, "plan ask"},
		{0.7, 0.9, contracts.LevelSafe, "plan refuse"},
		{0.1, 0.9, contracts.LevelUnsafe, "plan guard_refuse"},
	}
	for _, tc := range tests {
		out, err := r.Invoke(context.Background(), &contracts.ChatState{
			Plan: &contracts.SGRPlan{SpamScore: tc.spam, IntentConfidence: tc.conf}, Moderation: &contracts.Moderation{Level: tc.level}})
		require.NoError(t, err)
		assert.Equal(t, tc.want, path(out))
	}

	_, err = r.Invoke(context.Background(), &contracts.ChatState{
		Plan: &contracts.SGRPlan{}, Moderation: &contracts.Moderation{Level: "Weird"}})
	assert.ErrorContains(t, err, `route from "plan"`, "a table error stops the run and names the edge")

	m := r.Mermaid()
	assert.Contains(t, m, `plan -. "DT-002 block (rule 3)" .-> refuse`)
	assert.Contains(t, m, `plan -. "DT-002 guardian_block (rule 4)" .-> guard_refuse`)
}

func TestTableEdgesNeedATargetForEveryOutput(t *testing.T) {
	set, err := tables.Standard(tables.DefaultConfig())
	require.NoError(t, err)
	dt2, _ := set.Get("DT-002")
	g := New("route").AddNode("plan", note("plan")).AddEdge(START, "plan")
	g.AddTableEdges("plan", dt2, func(*contracts.ChatState) map[string]any { return nil }, "action", map[string]string{"normal": END})
	_, err = g.Compile(context.Background())
	assert.ErrorContains(t, err, `DT-002 can output action="clarify" but no target is given for it`)

	g = New("route").AddNode("plan", note("plan")).AddEdge(START, "plan")
	g.AddTableEdges("plan", dt2, func(*contracts.ChatState) map[string]any { return nil }, "colour", nil)
	_, err = g.Compile(context.Background())
	assert.ErrorContains(t, err, `DT-002 has no output "colour"`)
}

func TestCompileErrorsNameTheMistake(t *testing.T) {
	tests := []struct {
		name  string
		build func() *StateGraph
		want  []string
	}{
		{"no start", func() *StateGraph { return New("g").AddNode("a", note("a")).AddEdge("a", END) }, []string{"no edge from START"}},
		{"unknown nodes", func() *StateGraph { return New("g").AddEdge(START, "ghost").AddEdge("ghost", "gone") },
			[]string{`edge start → ghost: unknown node "ghost"`, `unknown node "gone"`}},
		{"twice", func() *StateGraph {
			return New("g").AddNode("a", note("a")).AddNode("a", note("a")).AddEdge(START, "a")
		},
			[]string{`node "a" added twice`}},
		{"reserved", func() *StateGraph { return New("g").AddNode(END, note("x")).AddEdge(START, END) }, []string{"reserved"}},
		{"nil function", func() *StateGraph { return New("g").AddNode("a", nil).AddEdge(START, END) }, []string{`node "a": nil function`}},
		{"bad target", func() *StateGraph {
			return New("g").AddNode("a", note("a")).AddEdge(START, "a").
				AddConditionalEdges("a", func(context.Context, *contracts.ChatState) (string, error) { return "x", nil }, map[string]string{"x": "nowhere"})
		}, []string{`conditional edge a -[x]-> nowhere: unknown node "nowhere"`}},
		{"bad subgraph", func() *StateGraph {
			return New("g").AddSubgraph("inner", New("inner").AddNode("x", note("x"))).AddEdge(START, "inner").AddEdge("inner", END)
		}, []string{`subgraph "inner": graph inner: no edge from START`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.build().Compile(context.Background())
			require.Error(t, err)
			assert.Contains(t, err.Error(), "graph g:")
			for _, w := range tc.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
	_, err := New("g").AddNode("a", note("a")).AddEdge(START, "a").Compile(context.Background(), WithMaxSteps(0))
	assert.ErrorContains(t, err, "max steps must be at least 1, got 0")
}

func TestRouterErrors(t *testing.T) {
	g := New("g").AddNode("a", note("a")).AddEdge(START, "a").
		AddConditionalEdges("a", func(context.Context, *contracts.ChatState) (string, error) { return "elsewhere", nil }, map[string]string{"x": END})
	r, err := g.Compile(context.Background())
	require.NoError(t, err)
	_, err = r.Invoke(context.Background(), &contracts.ChatState{})
	assert.ErrorContains(t, err, `route from "a": no target for "elsewhere"`)
}

func TestNodeErrorsAndNilStates(t *testing.T) {
	boom := errors.New("boom")
	g := New("g").AddNode("a", func(context.Context, *contracts.ChatState) (*contracts.ChatState, error) { return nil, boom }).
		AddEdge(START, "a").AddEdge("a", END)
	r, err := g.Compile(context.Background())
	require.NoError(t, err)
	_, err = r.Invoke(context.Background(), &contracts.ChatState{})
	assert.ErrorIs(t, err, boom)
	assert.ErrorContains(t, err, `node "a"`)

	_, err = r.Invoke(context.Background(), nil)
	assert.ErrorContains(t, err, "nil state")

	g = New("g").AddNode("a", func(context.Context, *contracts.ChatState) (*contracts.ChatState, error) { return nil, nil }).
		AddEdge(START, "a").AddEdge("a", END)
	r, err = g.Compile(context.Background())
	require.NoError(t, err)
	_, err = r.Invoke(context.Background(), &contracts.ChatState{})
	assert.ErrorContains(t, err, `node "a": returned a nil state`)
}

func TestSubgraph(t *testing.T) {
	inner := retryGraph(2)
	g := New("outer").AddNode("before", note("before")).AddSubgraph("loop", inner).AddNode("after", note("after")).
		AddEdge(START, "before").AddEdge("before", "loop").AddEdge("loop", "after").AddEdge("after", END)
	r, err := g.Compile(context.Background())
	require.NoError(t, err)
	out, err := r.Invoke(context.Background(), &contracts.ChatState{})
	require.NoError(t, err)
	assert.Equal(t, "before work work after", path(out))
	assert.Equal(t, 2, out.RetryCount)
	m := r.Mermaid()
	assert.Contains(t, m, "subgraph loop [loop]")
	assert.Contains(t, m, `loop_check -. "again" .-> loop_work`)
	assert.Contains(t, m, "before --> loop")
}

func TestCompiledGraphIsSafeToShare(t *testing.T) {
	r, err := retryGraph(3).Compile(context.Background())
	require.NoError(t, err)
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := r.Invoke(context.Background(), &contracts.ChatState{})
			assert.NoError(t, err)
			assert.Equal(t, 3, out.RetryCount)
		}()
	}
	wg.Wait()
}

func TestMermaid(t *testing.T) {
	want := "flowchart TD\n" +
		"  START --> work\n" +
		"  work --> check\n" +
		"  check -. \"again\" .-> work\n" +
		"  check -. \"done\" .-> END\n"
	assert.Equal(t, want, retryGraph(1).Mermaid())
}

func TestStopBefore(t *testing.T) {
	sub := New("loop").AddNode("inner", note("inner")).AddNode("deeper", note("deeper")).
		AddEdge(START, "inner").AddEdge("inner", "deeper").AddEdge("deeper", END)
	g := New("outer").AddNode("a", note("a")).AddSubgraph("sub", sub).AddNode("b", note("b")).
		AddEdge(START, "a").AddEdge("a", "sub").AddEdge("sub", "b").AddEdge("b", END)
	tests := []struct{ stop, path string }{
		{"a", ""},
		{"b", "a inner deeper"},
		{"deeper", "a inner"},
	}
	for _, tc := range tests {
		t.Run(tc.stop, func(t *testing.T) {
			r, err := g.Compile(context.Background(), StopBefore(tc.stop))
			require.NoError(t, err)
			out, err := r.Invoke(context.Background(), &contracts.ChatState{})
			require.NoError(t, err)
			assert.Equal(t, tc.path, path(out))
		})
	}
	_, err := g.Compile(context.Background(), StopBefore("nowhere"))
	assert.EqualError(t, err, `graph outer: stop before "nowhere": no such node`)
}
