package graph

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/tables"
)

// state is a test double of a user's own state, with a reducer per field
// kind and a field without one.
type state struct {
	Path  []string `reduce:"append"`
	Count int      `reduce:"sum"`
	Best  int      `reduce:"max"`
	Tags  []string `reduce:"union"`
	Owner string
	Item  int
	tables.Decisions
}

func (s *state) Clone() *state {
	c := *s
	c.Path, c.Tags = slices.Clone(s.Path), slices.Clone(s.Tags)
	c.Made = slices.Clone(s.Made)
	return &c
}

// visit is a node that records its name on the path.
func visit(name string) NodeFunc[*state] {
	return func(_ context.Context, s *state) (*state, error) {
		s.Path = append(s.Path, name)
		return s, nil
	}
}

func run(t *testing.T, g *StateGraph[*state], opts ...CompileOption) (*state, error) {
	t.Helper()
	r, err := g.Compile(context.Background(), opts...)
	require.NoError(t, err)
	return r.Invoke(context.Background(), &state{})
}

func TestLinearAndConditional(t *testing.T) {
	loud := func(_ context.Context, s *state) (string, error) {
		if s.Count > 0 {
			return "loud", nil
		}
		return "calm", nil
	}
	for _, tc := range []struct {
		name  string
		count int    // input
		path  string // output
	}{
		{"calm goes to END", 0, "a"},
		{"loud goes through b", 1, "a b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := New[*state]("cond").AddNode("a", visit("a")).AddNode("b", visit("b")).
				AddEdge(START, "a").
				AddConditionalEdges("a", ByFunc(loud), map[string]string{"loud": "b", "calm": END}).
				AddEdge("b", END).Compile(context.Background())
			require.NoError(t, err)
			out, err := r.Invoke(context.Background(), &state{Count: tc.count})
			require.NoError(t, err)
			assert.Equal(t, tc.path, strings.Join(out.Path, " "))
		})
	}
}

func TestFanOutAndJoin(t *testing.T) {
	slow := func(name string, d time.Duration) NodeFunc[*state] {
		return func(ctx context.Context, s *state) (*state, error) {
			time.Sleep(d)
			s.Count++
			s.Best = max(s.Best, len(name))
			s.Tags = append(s.Tags, "seen", name)
			return visit(name)(ctx, s)
		}
	}
	g := New[*state]("fan").
		AddNode("a", visit("a")).
		AddNode("b", slow("b", 30*time.Millisecond)).
		AddNode("c", slow("cc", 0)).
		AddNode("c2", visit("c2")).
		AddNode("d", visit("d")).
		AddEdge(START, "a").AddEdge("a", "b").AddEdge("a", "c").AddEdge("c", "c2").
		AddEdge("b", "d").AddEdge("c2", "d").AddEdge("d", END)
	out, err := run(t, g)
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b", "cc", "c2", "d"}, out.Path, "branches merge in edge order and d runs once, after both")
	assert.Equal(t, 2, out.Count, "sum adds each branch's change")
	assert.Equal(t, 2, out.Best)
	assert.Equal(t, []string{"seen", "b", "cc"}, out.Tags, "union keeps each element once")
}

func TestParallelWritesWithoutReducerConflict(t *testing.T) {
	owner := func(who string) NodeFunc[*state] {
		return func(_ context.Context, s *state) (*state, error) { s.Owner = who; return s, nil }
	}
	for _, tc := range []struct {
		name     string
		b, c     string // what each branch writes to Owner
		owner    string // merged, when no error
		conflict bool
	}{
		{"one branch writes", "x", "", "x", false},
		{"both write the same", "x", "x", "x", false},
		{"different values are an error", "x", "y", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := New[*state]("owners").AddNode("a", visit("a")).
				AddNode("b", owner(tc.b)).AddNode("c", owner(tc.c)).AddNode("d", visit("d")).
				AddEdge(START, "a").AddEdge("a", "b").AddEdge("a", "c").
				AddEdge("b", "d").AddEdge("c", "d").AddEdge("d", END)
			out, err := run(t, g)
			if !tc.conflict {
				require.NoError(t, err)
				assert.Equal(t, tc.owner, out.Owner)
				return
			}
			var iu *InvalidUpdateError
			require.ErrorAs(t, err, &iu)
			assert.Equal(t, "Owner", iu.Field)
			assert.Equal(t, []string{"b", "c"}, iu.Branches)
		})
	}
}

func TestSendMapReduce(t *testing.T) {
	split := func(_ context.Context, s *state) ([]Send[*state], error) {
		var sends []Send[*state]
		for i := 1; i <= 5; i++ {
			sends = append(sends, Send[*state]{Key: "work", State: &state{Item: i}})
		}
		return sends, nil
	}
	work := func(_ context.Context, s *state) (*state, error) {
		time.Sleep(time.Duration(6-s.Item) * time.Millisecond) // later sends finish first
		s.Count += s.Item * 10
		s.Path = append(s.Path, strings.Repeat("w", s.Item))
		return s, nil
	}
	g := New[*state]("mapreduce").AddNode("split", visit("split")).AddNode("work", work).AddNode("join", visit("join")).
		AddEdge(START, "split").
		AddConditionalEdges("split", BySend(split), map[string]string{"work": "work"}).
		AddEdge("work", "join").AddEdge("join", END)
	out, err := run(t, g)
	require.NoError(t, err)
	assert.Equal(t, []string{"split", "w", "ww", "www", "wwww", "wwwww", "join"}, out.Path, "results in Send order")
	assert.Equal(t, 150, out.Count)
}

func TestWithMergeGetsBranchesInOrder(t *testing.T) {
	var got []string
	merge := func(_ context.Context, _ *state, branches []*state) (*state, error) {
		for _, b := range branches {
			got = append(got, strings.Join(b.Path, ""))
		}
		return branches[len(branches)-1], nil
	}
	keys := func(context.Context, *state) ([]string, error) { return []string{"y", "x"}, nil }
	g := New[*state]("merge").AddNode("a", visit("a")).AddNode("x", visit("x")).AddNode("y", visit("y")).AddNode("z", visit("z")).
		AddEdge(START, "a").
		AddConditionalEdges("a", ByKeys(keys), map[string]string{"x": "x", "y": "y"}).
		AddEdge("x", "z").AddEdge("y", "z").AddEdge("z", END)
	out, err := run(t, g, WithMerge(merge))
	require.NoError(t, err)
	assert.Equal(t, []string{"ax", "ay"}, got)
	assert.Equal(t, []string{"a", "y", "z"}, out.Path)
}

func TestNodePolicies(t *testing.T) {
	flaky := func(fails int) NodeFunc[*state] {
		return func(ctx context.Context, s *state) (*state, error) {
			s.Count++ // a failed attempt's change must not survive
			if Attempt(ctx) <= fails {
				return s, errors.New("flaky")
			}
			s.Item = Attempt(ctx)
			return s, nil
		}
	}
	fast := RetryPolicy{MaxAttempts: 3, InitialInterval: time.Millisecond}
	t.Run("succeeds on attempt 3", func(t *testing.T) {
		out, err := run(t, New[*state]("r").AddNode("n", flaky(2), WithRetry(fast)).AddEdge(START, "n").AddEdge("n", END))
		require.NoError(t, err)
		assert.Equal(t, 3, out.Item)
		assert.Equal(t, 1, out.Count, "each attempt starts from a clean copy")
	})
	t.Run("gives up after MaxAttempts", func(t *testing.T) {
		_, err := run(t, New[*state]("r").AddNode("n", flaky(5), WithRetry(fast)).AddEdge(START, "n").AddEdge("n", END))
		require.ErrorContains(t, err, "after 3 attempts: flaky")
	})
	t.Run("RetryOn refuses", func(t *testing.T) {
		p := fast
		p.RetryOn = func(error) bool { return false }
		_, err := run(t, New[*state]("r").AddNode("n", flaky(1), WithRetry(p)).AddEdge(START, "n").AddEdge("n", END))
		require.EqualError(t, err, "graph r: [NodeRunError] flaky\n------------------------\nnode path: [n]")
	})
	t.Run("timeout names the node", func(t *testing.T) {
		stuck := func(context.Context, *state) (*state, error) { time.Sleep(time.Second); return &state{}, nil }
		start := time.Now()
		_, err := run(t, New[*state]("r").AddNode("stuck", stuck, WithTimeout(20*time.Millisecond)).AddEdge(START, "stuck").AddEdge("stuck", END))
		require.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Contains(t, err.Error(), `node "stuck" timed out after 20ms`)
		assert.Less(t, time.Since(start), 500*time.Millisecond)
	})
	t.Run("defaults apply to every node", func(t *testing.T) {
		out, err := run(t, New[*state]("r").AddNode("n", flaky(1)).AddEdge(START, "n").AddEdge("n", END),
			WithNodeDefaults(WithRetry(fast)))
		require.NoError(t, err)
		assert.Equal(t, 2, out.Item)
	})
}

func TestTableEdges(t *testing.T) {
	tbl, err := tables.New(tables.Table{ID: "DT-T", Name: "t", Inputs: []tables.Column{{Name: "n", Type: tables.TypeNumber}},
		Outputs: []tables.Column{{Name: "go", Type: tables.TypeString}},
		Rules:   []tables.Rule{{Inputs: []string{"> 0"}, Outputs: []string{"big"}}, {Inputs: []string{"-"}, Outputs: []string{"small"}}}})
	require.NoError(t, err)
	decide := func(_ context.Context, s *state) (*state, error) {
		res, err := tbl.Evaluate(map[string]any{"n": s.Count})
		s.Record(res)
		return s, err
	}
	build := func(node NodeFunc[*state], targets map[string]string) (*Runnable[*state], error) {
		return New[*state]("t").AddNode("d", node).AddNode("b", visit("b")).
			AddEdge(START, "d").AddConditionalEdges("d", ByTable[*state](tbl, "go"), targets).AddEdge("b", END).
			Compile(context.Background())
	}
	r, err := build(decide, map[string]string{"big": "b", "small": END})
	require.NoError(t, err)
	out, err := r.Invoke(context.Background(), &state{Count: 2})
	require.NoError(t, err)
	assert.Equal(t, []string{"b"}, out.Path)
	assert.Contains(t, r.Mermaid(), `d -. "DT-T big (rule 1)" .-> b`)

	_, err = build(decide, map[string]string{"big": "b"})
	require.ErrorContains(t, err, `DT-T can output go="small" but no target is given for it`)

	r, err = build(visit("d"), map[string]string{"big": "b", "small": END})
	require.NoError(t, err)
	_, err = r.Invoke(context.Background(), &state{})
	require.ErrorContains(t, err, "DT-T: no decision recorded")
}

func TestCompileErrors(t *testing.T) {
	_, err := New[*state]("bad").AddNode("a", visit("a")).AddNode("a", visit("a")).
		AddEdge("a", "nowhere").Compile(context.Background())
	require.Error(t, err)
	for _, want := range []string{`node "a" added twice`, `unknown node "nowhere"`, "no edge from START"} {
		assert.Contains(t, err.Error(), want)
	}
	type tagged struct {
		N []int `reduce:"sum"`
	}
	_, err = reduceMerge[tagged]()
	require.ErrorContains(t, err, `field N: reducer "sum" does not apply to []int`)
}

func TestLoopHitsMaxSteps(t *testing.T) {
	again := func(context.Context, *state) (string, error) { return "again", nil }
	_, err := run(t, New[*state]("loop").AddNode("a", visit("a")).AddEdge(START, "a").
		AddConditionalEdges("a", ByFunc(again), map[string]string{"again": "a", "stop": END}), WithMaxSteps(5))
	require.ErrorIs(t, err, ErrMaxSteps)
}

func TestStopBefore(t *testing.T) {
	out, err := run(t, New[*state]("s").AddNode("a", visit("a")).AddNode("b", visit("b")).
		AddEdge(START, "a").AddEdge("a", "b").AddEdge("b", END))
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b"}, out.Path)
	sub, err := New[*state]("sub").AddNode("x", visit("x")).AddNode("y", visit("y")).
		AddEdge(START, "x").AddEdge("x", "y").AddEdge("y", END).Compile(context.Background())
	require.NoError(t, err)
	r, err := New[*state]("s").AddNode("a", visit("a")).AddNode("sub", Subgraph(sub)).AddNode("b", visit("b")).
		AddEdge(START, "a").AddEdge("a", "sub").AddEdge("sub", "b").AddEdge("b", END).Compile(context.Background())
	require.NoError(t, err)
	out, err = r.Invoke(context.Background(), &state{}, StopBefore("y"))
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "x"}, out.Path, "a stop inside a subgraph ends the whole run")
}

func TestJoinsAndLoops(t *testing.T) {
	again := func(_ context.Context, s *state) (string, error) {
		if len(s.Path) < 8 {
			return "again", nil
		}
		return "done", nil
	}
	t.Run("START fans out", func(t *testing.T) {
		out, err := run(t, New[*state]("start").AddNode("a", visit("a")).AddNode("b", visit("b")).AddNode("c", visit("c")).
			AddEdge(START, "a").AddEdge(START, "b").AddEdge("a", "c").AddEdge("b", "c").AddEdge("c", END))
		require.NoError(t, err)
		assert.Equal(t, []string{"a", "b", "c"}, out.Path)
	})
	t.Run("a loop's way back is not a branch to wait for", func(t *testing.T) {
		out, err := run(t, New[*state]("loop").AddNode("a", visit("a")).AddNode("b", visit("b")).AddNode("c", visit("c")).
			AddEdge(START, "a").AddEdge("a", "b").AddEdge("c", "b").
			AddConditionalEdges("b", ByFunc(again), map[string]string{"again": "c", "done": END}))
		require.NoError(t, err)
		assert.Equal(t, "a b c b c b c b", strings.Join(out.Path, " "))
	})
	t.Run("a join inside a loop joins every round", func(t *testing.T) {
		out, err := run(t, New[*state]("loopjoin").AddNode("f", visit("f")).AddNode("x", visit("x")).AddNode("y", visit("y")).
			AddNode("j", visit("j")).
			AddEdge(START, "f").AddEdge("f", "x").AddEdge("f", "y").AddEdge("x", "j").AddEdge("y", "j").
			AddConditionalEdges("j", ByFunc(again), map[string]string{"again": "f", "done": END}))
		require.NoError(t, err)
		assert.Equal(t, "f x y j f x y j", strings.Join(out.Path, " "))
	})
}

func TestSendOfTheStateItself(t *testing.T) {
	work := func(_ context.Context, s *state) (*state, error) {
		s.Count++
		s.Owner = "work"
		s.Path = append(s.Path, "work")
		return s, nil
	}
	for _, tc := range []struct {
		name string
		sent func(*state) *state
	}{
		{"the state itself runs as a plain step", func(s *state) *state { return s }},
		{"a copy of it is merged to the same result", func(s *state) *state { return s.Clone() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			send := func(_ context.Context, s *state) ([]Send[*state], error) {
				return []Send[*state]{{Key: "work", State: tc.sent(s)}}, nil
			}
			g := New[*state]("self").AddNode("split", visit("split")).AddNode("work", work).AddNode("join", visit("join")).
				AddEdge(START, "split").
				AddConditionalEdges("split", BySend(send), map[string]string{"work": "work"}).
				AddEdge("work", "join").AddEdge("join", END)
			out, err := run(t, g)
			require.NoError(t, err)
			assert.Equal(t, []string{"split", "work", "join"}, out.Path)
			assert.Equal(t, 1, out.Count)
			assert.Equal(t, "work", out.Owner)
		})
	}
}
