package graph

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// talker is a plain node that writes to every stream a node can write to.
func talker(name string) NodeFunc[*state] {
	return func(ctx context.Context, s *state) (*state, error) {
		EmitMessage(ctx, name+":token")
		Emit(ctx, map[string]any{"node": name, "path": Path(ctx), "steps": RemainingSteps(ctx)})
		s.Path = append(s.Path, fmt.Sprintf("%s%d", name, RemainingSteps(ctx)))
		s.Count++
		s.Tags = append(s.Tags, name)
		return s, nil
	}
}

// fusable graphs: each has chains or a fan-out that Compile fuses.
func fusableGraphs(t *testing.T) map[string]struct {
	g        *StateGraph[*state]
	parallel bool
	groups   int // eino nodes when fused
} {
	sub, err := New[*state]("sub").AddNode("x", talker("x")).AddNode("y", talker("y")).
		AddEdge(START, "x").AddEdge("x", "y").AddEdge("y", END).Compile(context.Background())
	require.NoError(t, err)
	again := func(_ context.Context, s *state) (string, error) {
		if s.Count < 9 {
			return "again", nil
		}
		return "done", nil
	}
	chain := func(names ...string) *StateGraph[*state] {
		g := New[*state]("chain")
		prev := START
		for _, n := range names {
			g.AddNode(n, talker(n)).AddEdge(prev, n)
			prev = n
		}
		return g.AddEdge(prev, END)
	}
	fan := New[*state]("fan").AddNode("split", talker("split")).AddNode("join", talker("join")).AddNode("after", talker("after")).
		AddEdge(START, "split").AddEdge("join", "after").AddEdge("after", END)
	for i, n := range []int{1, 3, 2} { // branches of different lengths
		prev := "split"
		for j := range n {
			name := fmt.Sprintf("b%d_%d", i, j)
			fan.AddNode(name, talker(name)).AddEdge(prev, name)
			prev = name
		}
		fan.AddEdge(prev, "join")
	}
	both := func(context.Context, *state) ([]string, error) { return []string{"l", "r"}, nil }
	keys := New[*state]("keys").AddNode("a", talker("a")).AddNode("l1", talker("l1")).AddNode("l2", talker("l2")).
		AddNode("r1", talker("r1")).AddNode("j", talker("j")).AddNode("k", talker("k")).
		AddEdge(START, "a").AddConditionalEdges("a", ByKeys(both), map[string]string{"l": "l1", "r": "r1"}).
		AddEdge("l1", "l2").AddEdge("l2", "j").AddEdge("r1", "j").AddEdge("j", "k").AddEdge("k", END)
	deferred := New[*state]("defer").AddNode("f", talker("f")).AddNode("l1", talker("l1")).AddNode("l2", talker("l2")).
		AddNode("l3", talker("l3")).AddNode("r1", talker("r1")).AddNode("d", talker("d"), WithDefer()).
		AddEdge(START, "f").AddEdge("f", "l1").AddEdge("f", "r1").AddEdge("l1", "l2").AddEdge("l2", "l3").
		AddEdge("l3", "d").AddEdge("r1", "d").AddEdge("d", END)
	return map[string]struct {
		g        *StateGraph[*state]
		parallel bool
		groups   int
	}{
		"chain": {chain("a", "b", "c", "d"), false, 1},
		"loop": {New[*state]("loop").AddNode("a", talker("a")).AddNode("b", talker("b")).AddNode("c", talker("c")).
			AddEdge(START, "a").AddEdge("a", "b").AddEdge("b", "c").
			AddConditionalEdges("c", ByFunc(again), map[string]string{"again": "a", "done": END}), false, 1},
		"subgraph between chains": {New[*state]("mixed").AddNode("a", talker("a")).AddNode("b", talker("b")).
			AddNode("sub", Subgraph(sub)).AddNode("c", talker("c")).AddNode("d", talker("d")).
			AddEdge(START, "a").AddEdge("a", "b").AddEdge("b", "sub").AddEdge("sub", "c").AddEdge("c", "d").AddEdge("d", END), false, 1},
		"fan-out": {fan, true, 1},
		// Chains inside branches a router starts, and a join after them
		// that starts a chain: a, l1+l2, r1, j+k.
		"router fan-out": {keys, true, 4},
		// A deferred node after branches of unequal lengths: f, l1+l2+l3,
		// r1, d.
		"deferred": {deferred, true, 4},
		// Ten one-node branches and their join: one group, which a run
		// without callbacks calls without eino (direct.go).
		"ten branches": {fanOutGraph(), true, 1},
	}
}

// transcriptOf renders every event of a stream as a line, the debug
// durations left out; a parallel graph's lines are sorted, since branches
// interleave.
func transcriptOf(t *testing.T, r *Runnable[*state], parallel bool, modes ...StreamMode) []string {
	var lines []string
	for c, err := range r.Stream(context.Background(), &state{}, WithStreamModes(modes...)) {
		require.NoError(t, err)
		if c.Debug != nil {
			c.Debug.Duration = 0
		}
		line := fmt.Sprintf("%s %s %v %v %v %v %+v %v", c.Mode, c.Path, c.Update, c.Overwrite, c.Message, c.Custom, c.Debug, c.State)
		if c.State != nil {
			line += fmt.Sprintf(" %+v", *c.State)
		}
		lines = append(lines, line)
	}
	if parallel {
		sort.Strings(lines)
	}
	return lines
}

func TestFusedChainsStreamAsUnfused(t *testing.T) {
	modes := [][]StreamMode{{StreamValues}, {StreamUpdates}, {StreamMessages}, {StreamCustom}, {StreamDebug},
		{StreamValues, StreamUpdates, StreamMessages, StreamCustom, StreamDebug}}
	for name, tc := range fusableGraphs(t) {
		t.Run(name, func(t *testing.T) {
			fused, err := tc.g.Compile(context.Background(), WithMaxSteps(40))
			require.NoError(t, err)
			unfused, err := tc.g.Compile(context.Background(), WithMaxSteps(40), WithoutFusion())
			require.NoError(t, err)
			assert.Len(t, fused.fuse(true).heads, tc.groups, "the graph fuses")
			assert.Len(t, unfused.fuse(false).heads, len(tc.g.order))
			for _, m := range modes {
				want := transcriptOf(t, unfused, tc.parallel, m...)
				require.NotEmpty(t, want)
				assert.Equal(t, want, transcriptOf(t, fused, tc.parallel, m...), "modes %v", m)
			}
			a, err := fused.Invoke(context.Background(), &state{})
			require.NoError(t, err)
			b, err := unfused.Invoke(context.Background(), &state{})
			require.NoError(t, err)
			if tc.parallel {
				slices.Sort(a.Tags)
				slices.Sort(b.Tags)
			}
			assert.Equal(t, b, a)
			assert.Equal(t, unfused.Mermaid(), fused.Mermaid(), "the diagram stays node by node")
		})
	}
}

func TestFusedChainsTraceAsUnfused(t *testing.T) {
	spansOf := func(opts ...CompileOption) []string {
		tp, exp := recorded(t)
		g := fusableGraphs(t)["fan-out"].g
		r, err := g.Compile(context.Background(), append(opts, WithTracing(tp))...)
		require.NoError(t, err)
		_, err = r.Invoke(context.Background(), &state{})
		require.NoError(t, err)
		names := map[[8]byte]string{}
		for _, s := range exp.GetSpans() {
			names[s.SpanContext.SpanID()] = s.Name
		}
		var out []string
		for _, s := range exp.GetSpans() {
			out = append(out, fmt.Sprintf("%s under %s, attempt %v", s.Name, names[s.Parent.SpanID()], attr(s, "sgrgraph.node.attempt").AsInt64()))
		}
		sort.Strings(out)
		return out
	}
	want := spansOf(WithoutFusion())
	assert.Len(t, want, 10, "a span per node and one for the run")
	assert.Equal(t, want, spansOf())
}

// TestFusedChainsFailAsUnfused: a fused node's error, panic, step limit,
// misuse of Goto and StopBefore read as they do without fusion.
func TestFusedChainsFailAsUnfused(t *testing.T) {
	boom := func(context.Context, *state) (*state, error) { return nil, errors.New("boom") }
	panics := func(context.Context, *state) (*state, error) { panic("oops") }
	strays := func(ctx context.Context, s *state) (*state, error) { Goto(ctx, "a"); return s, nil }
	forever := func(context.Context, *state) (string, error) { return "again", nil }
	line := func(mid NodeFunc[*state]) *StateGraph[*state] {
		return New[*state]("g").AddNode("a", visit("a")).AddNode("b", mid).AddNode("c", visit("c")).
			AddEdge(START, "a").AddEdge("a", "b").AddEdge("b", "c").AddEdge("c", END)
	}
	failing, err := New[*state]("sub").AddNode("s", visit("s")).AddNode("t", boom).AddEdge(START, "s").AddEdge("s", "t").
		AddEdge("t", END).Compile(context.Background())
	require.NoError(t, err)
	branchy := New[*state]("g").AddNode("f", visit("f")).AddNode("x", visit("x")).AddNode("y", boom).AddNode("j", visit("j")).
		AddEdge(START, "f").AddEdge("f", "x").AddEdge("f", "y").AddEdge("x", "j").AddEdge("y", "j").AddEdge("j", END)
	cancels := func(ctx context.Context, s *state) (*state, error) {
		ctx.Value(cancelKey{}).(context.CancelFunc)()
		s.Path = append(s.Path, "cancels")
		return s, nil
	}
	for name, tc := range map[string]struct {
		g    *StateGraph[*state]
		opts []CompileOption
		run  []RunOption
		pre  bool // the context ends before the run starts
	}{
		"canceled between nodes": {g: line(cancels)},
		"canceled before branches": {g: New[*state]("g").AddNode("f", cancels).AddNode("x", visit("x")).AddNode("y", visit("y")).
			AddNode("j", visit("j")).AddEdge(START, "f").AddEdge("f", "x").AddEdge("f", "y").AddEdge("x", "j").
			AddEdge("y", "j").AddEdge("j", END)},
		"error":               {g: line(boom)},
		"panic":               {g: line(panics)},
		"goto undeclared":     {g: line(strays)},
		"error in a branch":   {g: branchy},
		"error in a subgraph": {g: line(Subgraph(failing))},
		"step limit": {g: New[*state]("g").AddNode("a", visit("a")).AddNode("b", visit("b")).AddNode("c", visit("c")).
			AddEdge(START, "a").AddEdge("a", "b").AddEdge("b", "c").
			AddConditionalEdges("c", ByFunc(forever), map[string]string{"again": "a", "stop": END}), opts: []CompileOption{WithMaxSteps(7)}},
		"stop before":             {g: line(visit("b")), run: []RunOption{StopBefore("c")}},
		"canceled before the run": {g: line(visit("b")), pre: true},
		"step limit in a chain":   {g: line(visit("b")), opts: []CompileOption{WithMaxSteps(2)}},
	} {
		t.Run(name, func(t *testing.T) {
			outcome := func(opts ...CompileOption) string {
				r, err := tc.g.Compile(context.Background(), append(slices.Clone(tc.opts), opts...)...)
				require.NoError(t, err)
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				if tc.pre {
					cancel()
				}
				out, err := r.Invoke(context.WithValue(ctx, cancelKey{}, cancel), &state{}, tc.run...)
				if err != nil {
					msg := err.Error()
					if i := strings.Index(msg, "stack:"); i >= 0 { // the goroutine's stack differs
						msg = msg[:i]
					}
					return fmt.Sprintf("error %s (max steps: %v)", msg, errors.Is(err, ErrMaxSteps))
				}
				return fmt.Sprint(out.Path)
			}
			want := outcome(WithoutFusion())
			assert.Equal(t, want, outcome())
			t.Log(want)
		})
	}
}

type cancelKey struct{}

// Branches of a fused fan-out still run side by side: the first waits
// for the last, which must start while the first blocks.
func TestFusedBranchesWaitForEachOther(t *testing.T) {
	ready := make(chan struct{})
	waits := func(ctx context.Context, s *state) (*state, error) {
		select {
		case <-ready:
		case <-time.After(10 * time.Second):
			return nil, errors.New("the other branches did not start while this one waited")
		}
		return visit("first")(ctx, s)
	}
	signals := func(ctx context.Context, s *state) (*state, error) {
		close(ready)
		return visit("last")(ctx, s)
	}
	r, err := New[*state]("g").AddNode("f", visit("f")).AddNode("first", waits).AddNode("mid", visit("mid")).
		AddNode("last", signals).AddNode("j", visit("j")).AddEdge(START, "f").
		AddEdge("f", "first").AddEdge("f", "mid").AddEdge("f", "last").
		AddEdge("first", "j").AddEdge("mid", "j").AddEdge("last", "j").AddEdge("j", END).Compile(context.Background())
	require.NoError(t, err)
	require.Len(t, r.fuse(true).heads, 1, "the fan-out is fused")
	out, err := r.Invoke(context.Background(), &state{})
	require.NoError(t, err)
	assert.Equal(t, []string{"f", "first", "mid", "last", "j"}, out.Path)
}
