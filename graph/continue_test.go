package graph

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/checkpoint/sqlite"
)

// threadStores are the checkpointers the thread tests run against: the
// memory store and SQLite (a real store, in-process).
var threadStores = []struct {
	name string
	open func(t *testing.T) checkpoint.Store
}{
	{"memory", func(*testing.T) checkpoint.Store { return checkpoint.NewMemory() }},
	{"sqlite", func(t *testing.T) checkpoint.Store {
		s, err := sqlite.Open(filepath.Join(t.TempDir(), "threads.db"))
		require.NoError(t, err)
		t.Cleanup(func() { _ = s.Close() })
		return s
	}},
}

// forEachStore runs f once per store.
func forEachStore(t *testing.T, f func(t *testing.T, store checkpoint.Store)) {
	for _, st := range threadStores {
		t.Run(st.name, func(t *testing.T) { f(t, st.open(t)) })
	}
}

// asking is a node that asks for an owner and records it.
func asker(name string, runs *atomic.Int32) NodeFunc[*state] {
	return func(ctx context.Context, s *state) (*state, error) {
		runs.Add(1)
		who, err := Interrupt[string](ctx, "owner of "+name+"?")
		if err != nil {
			return nil, err
		}
		s.Owner, s.Path = who, append(s.Path, name)
		return s, nil
	}
}

func TestInvokeOnAThreadWithAState(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		second *state
		opts   []RunOption
		want   state
	}{
		{"the input is merged by the reducers", &state{Count: 2, Best: 1, Tags: []string{"y"}}, nil,
			state{Path: []string{"a", "b", "c", "a", "b", "c"}, Count: 3, Best: 5, Tags: []string{"x", "y"}, Owner: "ann"}},
		{"a field without a reducer takes a value that is set", &state{Owner: "bob"}, nil,
			state{Path: []string{"a", "b", "c", "a", "b", "c"}, Count: 1, Best: 5, Tags: []string{"x"}, Owner: "bob"}},
		{"ReplaceState starts on the input as it is", &state{Item: 7}, []RunOption{ReplaceState()},
			state{Path: []string{"a", "b", "c"}, Item: 7}},
		{"the zero input runs again on the thread's state", nil, nil,
			state{Path: []string{"a", "b", "c", "a", "b", "c"}, Count: 1, Best: 5, Tags: []string{"x"}, Owner: "ann"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			forEachStore(t, func(t *testing.T, store checkpoint.Store) {
				runs := map[string]*atomic.Int32{}
				r := linear(t, store, runs, counted("b", runs))
				_, err := r.Invoke(ctx, &state{Count: 1, Best: 5, Tags: []string{"x"}, Owner: "ann"}, WithThread("t"))
				require.NoError(t, err)
				var second *state
				if tc.second != nil {
					second = tc.second.Clone() // a run may change its input: each store gets its own
				}
				out, err := r.Invoke(ctx, second, append(tc.opts, WithThread("t"))...)
				require.NoError(t, err)
				assert.Equal(t, tc.want, *out)
				history, err := r.History(ctx, "t")
				require.NoError(t, err)
				assert.Equal(t, "input", history[3].Metadata.Source, "the second run's first checkpoint holds its input")
				assert.Equal(t, history[4].ID, history[3].Parent)
			})
		})
	}
}

func TestAPendingInterruptRefusesANewInput(t *testing.T) {
	ctx := context.Background()
	forEachStore(t, func(t *testing.T, store checkpoint.Store) {
		var asked atomic.Int32
		runs := map[string]*atomic.Int32{}
		r := linear(t, store, runs, asker("b", &asked))
		_, err := r.Invoke(ctx, &state{}, WithThread("t"))
		var paused *InterruptError
		require.ErrorAs(t, err, &paused)
		id := paused.Pending().ID
		require.NotEmpty(t, id)

		_, err = r.Invoke(ctx, &state{Item: 1}, WithThread("t"))
		require.ErrorIs(t, err, ErrPending)
		var pending *PendingError
		require.ErrorAs(t, err, &pending)
		assert.Equal(t, paused.Checkpoint, pending.Checkpoint)
		assert.ErrorContains(t, err, "at b (interrupt "+id+")", "the error names the interrupt")
		assert.EqualValues(t, 1, asked.Load(), "a refused input runs nothing")

		_, err = r.Invoke(ctx, nil, WithThread("t"))
		require.ErrorAs(t, err, &paused, "the zero input continues: the node asks again")
		assert.Equal(t, id, paused.Pending().ID, "the same question keeps its ID")
		assert.EqualValues(t, 2, asked.Load())

		out, err := r.Invoke(ctx, &state{Item: 1}, WithThread("t"), ReplacePending())
		require.ErrorAs(t, err, &paused, "ReplacePending runs the input; b asks anew")
		assert.Nil(t, out)
		snap, err := r.State(ctx, "t")
		require.NoError(t, err)
		assert.Equal(t, 1, snap.State.Item)

		out, err = r.Resume(ctx, "t", "cat")
		require.NoError(t, err)
		assert.Equal(t, "cat", out.Owner)
		assert.Equal(t, []string{"a", "a", "b", "c"}, out.Path, "the replaced run started on the thread's state")
	})
}

func TestUpdateState(t *testing.T) {
	ctx := context.Background()
	forEachStore(t, func(t *testing.T, store checkpoint.Store) {
		t.Run("without AsNode the paused node runs again on the edit", func(t *testing.T) {
			var asked atomic.Int32
			r := linear(t, store, map[string]*atomic.Int32{}, asker("b", &asked))
			_, err := r.Invoke(ctx, &state{}, WithThread("edit"))
			require.True(t, IsInterrupt(err))
			id, err := r.UpdateState(ctx, &state{Item: 9, Tags: []string{"edited"}}, WithThread("edit"))
			require.NoError(t, err)
			snap, err := r.State(ctx, "edit")
			require.NoError(t, err)
			assert.Equal(t, id, snap.ID)
			assert.Equal(t, "update", snap.Metadata.Source)
			assert.Equal(t, []string{"b"}, snap.Next, "the thread stands where it stood")
			require.Len(t, snap.Interrupts, 1, "and still waits")
			out, err := r.Resume(ctx, "edit", "ann")
			require.NoError(t, err)
			assert.Equal(t, 9, out.Item)
			assert.Equal(t, []string{"edited"}, out.Tags)
			assert.Equal(t, "ann", out.Owner)
		})
		t.Run("AsNode counts the update as the node's output", func(t *testing.T) {
			var asked atomic.Int32
			runs := map[string]*atomic.Int32{}
			r := linear(t, store, runs, asker("b", &asked))
			_, err := r.Invoke(ctx, &state{}, WithThread("as"))
			require.True(t, IsInterrupt(err))
			_, err = r.UpdateState(ctx, &state{Owner: "set by hand", Path: []string{"b"}}, WithThread("as"), AsNode("b"))
			require.NoError(t, err)
			snap, err := r.State(ctx, "as")
			require.NoError(t, err)
			assert.Equal(t, []string{"c"}, snap.Next, "b's edge leads to c")
			assert.Empty(t, snap.Interrupts, "b counts as done")
			out, err := r.Invoke(ctx, nil, WithThread("as"))
			require.NoError(t, err)
			assert.Equal(t, []string{"a", "b", "c"}, out.Path)
			assert.Equal(t, "set by hand", out.Owner)
			assert.EqualValues(t, 1, asked.Load(), "b did not run again")
		})
		t.Run("the router decides from the merged state", func(t *testing.T) {
			big := func(_ context.Context, s *state) (string, error) {
				if s.Count > 3 {
					return "big", nil
				}
				return "small", nil
			}
			r, err := New[*state]("route").AddNode("a", visit("a")).AddNode("big", visit("big")).AddNode("small", visit("small")).
				AddEdge(START, "a").AddConditionalEdges("a", ByFunc(big), map[string]string{"big": "big", "small": "small"}).
				AddEdge("big", END).AddEdge("small", END).Compile(ctx, WithCheckpointer(store))
			require.NoError(t, err)
			_, err = r.Invoke(ctx, &state{Count: 1}, WithThread("route"))
			require.NoError(t, err)
			_, err = r.UpdateState(ctx, &state{Count: 5}, WithThread("route"), AsNode("a"))
			require.NoError(t, err)
			snap, err := r.State(ctx, "route")
			require.NoError(t, err)
			assert.Equal(t, []string{"big"}, snap.Next)
			assert.Equal(t, 6, snap.State.Count, "sum adds the update")
			out, err := r.Invoke(ctx, nil, WithThread("route"))
			require.NoError(t, err)
			assert.Equal(t, []string{"a", "small", "big"}, out.Path)
		})
		t.Run("FromCheckpoint forks and keeps the old branch", func(t *testing.T) {
			runs := map[string]*atomic.Int32{}
			r := linear(t, store, runs, counted("b", runs))
			_, err := r.Invoke(ctx, &state{Owner: "first"}, WithThread("fork"))
			require.NoError(t, err)
			history, err := r.History(ctx, "fork")
			require.NoError(t, err)
			beforeC := history[1]
			require.Equal(t, []string{"c"}, beforeC.Next)
			id, err := r.UpdateState(ctx, &state{Owner: "second"}, WithThread("fork"), FromCheckpoint(beforeC.ID))
			require.NoError(t, err)
			out, err := r.Invoke(ctx, nil, WithThread("fork"))
			require.NoError(t, err)
			assert.Equal(t, "second", out.Owner)
			assert.Equal(t, []string{"a", "b", "c"}, out.Path)
			after, err := r.History(ctx, "fork")
			require.NoError(t, err)
			require.Len(t, after, 6, "the fork adds the edit and the end; the old branch stays")
			assert.Equal(t, id, after[1].ID)
			assert.Equal(t, beforeC.ID, after[1].Parent, "the edit names the checkpoint it forked from")
			assert.Equal(t, id, after[0].Parent)
			assert.Equal(t, "first", after[2].State.Owner, "the old end is kept")
		})
		t.Run("mistakes", func(t *testing.T) {
			r := fanIn(t, store, map[string]*atomic.Int32{}, visit("b1"))
			for _, tc := range []struct {
				opts []RunOption
				want string
			}{
				{[]RunOption{WithThread("m"), AsNode("nope")}, `AsNode("nope"): no such node`},
				{[]RunOption{WithThread("m"), AsNode("b1")}, "runs in a parallel branch"},
				{[]RunOption{WithThread("m"), FromCheckpoint("missing")}, "not found"},
				{nil, "thread: empty"},
			} {
				_, err := r.UpdateState(ctx, &state{}, tc.opts...)
				assert.ErrorContains(t, err, tc.want)
			}
			_, err := r.Invoke(ctx, &state{}, WithThread("m"), AsNode("a"))
			assert.ErrorContains(t, err, "AsNode is an option of UpdateState")
		})
	})
}

// fanIn is a → (b1 | b2 → b2x) → join → END: two branches, one of two nodes.
func fanIn(t *testing.T, store checkpoint.Store, runs map[string]*atomic.Int32, b1 NodeFunc[*state], opts ...CompileOption) *Runnable[*state] {
	t.Helper()
	r, err := New[*state]("fan").
		AddNode("a", counted("a", runs)).AddNode("b1", b1).AddNode("b2", counted("b2", runs)).AddNode("b2x", counted("b2x", runs)).
		AddNode("join", counted("join", runs)).
		AddEdge(START, "a").AddEdge("a", "b1").AddEdge("a", "b2").AddEdge("b2", "b2x").
		AddEdge("b1", "join").AddEdge("b2x", "join").AddEdge("join", END).
		Compile(context.Background(), append(opts, WithCheckpointer(store))...)
	require.NoError(t, err)
	return r
}

func TestUpdateStateAsTheForkRunsItsBranchesAgain(t *testing.T) {
	ctx := context.Background()
	forEachStore(t, func(t *testing.T, store checkpoint.Store) {
		runs := map[string]*atomic.Int32{}
		r := fanIn(t, store, runs, counted("b1", runs))
		_, err := r.Invoke(ctx, &state{}, WithThread("t"))
		require.NoError(t, err)
		_, err = r.UpdateState(ctx, &state{Count: 10}, WithThread("t"), AsNode("a"))
		require.NoError(t, err)
		snap, err := r.State(ctx, "t")
		require.NoError(t, err)
		assert.Equal(t, []string{"b1", "b2"}, snap.Next, "a's branches are next")
		out, err := r.Invoke(ctx, nil, WithThread("t"))
		require.NoError(t, err)
		assert.Equal(t, 10, out.Count)
		assert.Equal(t, []string{"a", "b1", "b2", "b2x", "join", "b1", "b2", "b2x", "join"}, out.Path)
		assert.EqualValues(t, 1, runs["a"].Load(), "the fork did not run again")
		assert.EqualValues(t, 2, runs["b1"].Load())
	})
}

func TestInterruptsInParallelBranches(t *testing.T) {
	ctx := context.Background()
	forEachStore(t, func(t *testing.T, store checkpoint.Store) {
		var asked1, asked2 atomic.Int32
		runs := map[string]*atomic.Int32{}
		ask2 := func(ctx context.Context, s *state) (*state, error) {
			asked2.Add(1)
			n, err := Interrupt[int](ctx, "how many?")
			if err != nil {
				return nil, err
			}
			s.Count += n
			s.Path = append(s.Path, "b2x")
			return s, nil
		}
		r, err := New[*state]("fan").
			AddNode("a", counted("a", runs)).AddNode("b1", asker("b1", &asked1)).AddNode("b2", counted("b2", runs)).AddNode("b2x", ask2).
			AddNode("b3", counted("b3", runs)).AddNode("join", counted("join", runs)).
			AddEdge(START, "a").AddEdge("a", "b1").AddEdge("a", "b2").AddEdge("a", "b3").AddEdge("b2", "b2x").
			AddEdge("b1", "join").AddEdge("b2x", "join").AddEdge("b3", "join").AddEdge("join", END).
			Compile(ctx, WithCheckpointer(store))
		require.NoError(t, err)

		_, err = r.Invoke(ctx, &state{}, WithThread("t"))
		var paused *InterruptError
		require.ErrorAs(t, err, &paused)
		waiting := paused.Waiting()
		require.Len(t, waiting, 2, "one interrupt per branch that asked")
		assert.Equal(t, []string{"b1", "b2x"}, []string{waiting[0].Node, waiting[1].Node})
		assert.NotEqual(t, waiting[0].ID, waiting[1].ID)
		assert.EqualValues(t, 1, runs["b3"].Load(), "the branch that did not ask finished")
		assert.EqualValues(t, 0, runs["join"].Load(), "the join waits")
		snap, err := r.State(ctx, "t")
		require.NoError(t, err)
		assert.Equal(t, []string{"b1", "b2x"}, snap.Next)
		assert.Equal(t, []string{"a"}, snap.State.Path, "the state the branches started from")

		_, err = r.Resume(ctx, "t", "one value")
		assert.ErrorContains(t, err, "2 interrupts wait", "several questions are answered by ID")
		_, err = r.Resume(ctx, "t", map[string]any{waiting[0].ID: "ann", "nope": 1})
		assert.ErrorContains(t, err, "no such interrupt waits")

		_, err = r.Resume(ctx, "t", map[string]any{waiting[0].ID: "ann"})
		require.ErrorAs(t, err, &paused, "the unanswered branch asks again")
		require.Len(t, paused.Waiting(), 1)
		assert.Equal(t, waiting[1].ID, paused.Pending().ID)
		assert.EqualValues(t, 2, asked1.Load())

		out, err := r.Resume(ctx, "t", map[string]any{waiting[1].ID: 4})
		require.NoError(t, err)
		assert.Equal(t, "ann", out.Owner)
		assert.Equal(t, 4, out.Count)
		assert.Equal(t, []string{"a", "b1", "b2", "b2x", "b3", "join"}, out.Path, "the branches merge in edge order")
		assert.EqualValues(t, 2, asked1.Load(), "b1 finished on the first resume and did not run again")
		assert.EqualValues(t, 3, asked2.Load())
		assert.EqualValues(t, 1, runs["b2"].Load(), "b2 finished before b2x asked")
		assert.EqualValues(t, 1, runs["b3"].Load())
		assert.EqualValues(t, 1, runs["join"].Load())
	})
}

func TestInterruptsInParallelBranchesOfASubgraph(t *testing.T) {
	ctx := context.Background()
	forEachStore(t, func(t *testing.T, store checkpoint.Store) {
		var asked1 atomic.Int32
		runs := map[string]*atomic.Int32{}
		sub := fanIn(t, store, runs, asker("b1", &asked1))
		r, err := New[*state]("outer").AddNode("pre", counted("pre", runs)).AddNode("sub", Subgraph(sub)).AddNode("post", counted("post", runs)).
			AddEdge(START, "pre").AddEdge("pre", "sub").AddEdge("sub", "post").AddEdge("post", END).
			Compile(ctx, WithCheckpointer(store))
		require.NoError(t, err)
		_, err = r.Invoke(ctx, &state{}, WithThread("t"))
		var paused *InterruptError
		require.ErrorAs(t, err, &paused)
		assert.Equal(t, "sub/b1", paused.Pending().Node)

		snap, err := r.State(ctx, "t", WithSubgraphs())
		require.NoError(t, err)
		assert.Equal(t, []string{"sub"}, snap.Next)
		assert.Equal(t, []string{"pre"}, snap.State.Path, "the state the subgraph started on")
		require.Len(t, snap.Subgraphs, 1)
		inner := snap.Subgraphs[0]
		assert.Equal(t, "sub", inner.Namespace)
		assert.Equal(t, []string{"b1"}, inner.Next)
		assert.Equal(t, []string{"pre", "a"}, inner.State.Path)
		require.Len(t, inner.Interrupts, 1)
		assert.Equal(t, "b1", inner.Interrupts[0].Node)

		out, err := r.Resume(ctx, "t", "zed")
		require.NoError(t, err)
		assert.Equal(t, []string{"pre", "a", "b1", "b2", "b2x", "join", "post"}, out.Path)
		assert.Equal(t, "zed", out.Owner)
		assert.EqualValues(t, 1, runs["b2x"].Load())
		assert.EqualValues(t, 1, runs["a"].Load())
	})
}

func TestStateWithSubgraphs(t *testing.T) {
	ctx := context.Background()
	forEachStore(t, func(t *testing.T, store checkpoint.Store) {
		runs := map[string]*atomic.Int32{}
		var asked atomic.Int32
		inner, err := New[*state]("inner").AddNode("x", counted("x", runs)).AddNode("ask", asker("ask", &asked)).
			AddEdge(START, "x").AddEdge("x", "ask").AddEdge("ask", END).Compile(ctx, WithCheckpointer(store))
		require.NoError(t, err)
		mid, err := New[*state]("mid").AddNode("m", counted("m", runs)).AddNode("inner", Subgraph(inner)).
			AddEdge(START, "m").AddEdge("m", "inner").AddEdge("inner", END).Compile(ctx, WithCheckpointer(store))
		require.NoError(t, err)
		r, err := New[*state]("top").AddNode("a", counted("a", runs)).AddNode("mid", Subgraph(mid)).
			AddEdge(START, "a").AddEdge("a", "mid").AddEdge("mid", END).Compile(ctx, WithCheckpointer(store))
		require.NoError(t, err)
		_, err = r.Invoke(ctx, &state{}, WithThread("t"))
		require.True(t, IsInterrupt(err))

		plain, err := r.State(ctx, "t")
		require.NoError(t, err)
		assert.Equal(t, []string{"mid/inner/ask"}, plain.Next, "without the option: the latest checkpoint, by path")
		assert.Empty(t, plain.Subgraphs)

		snap, err := r.State(ctx, "t", WithSubgraphs())
		require.NoError(t, err)
		type view struct {
			ns, next string
			path     []string
		}
		var got []view
		for s := snap; ; s = s.Subgraphs[0] {
			got = append(got, view{s.Namespace, s.Next[0], s.State.Path})
			if len(s.Subgraphs) == 0 {
				break
			}
		}
		assert.Equal(t, []view{
			{"", "mid", []string{"a"}},
			{"mid", "inner", []string{"a", "m"}},
			{"mid/inner", "ask", []string{"a", "m", "x"}},
		}, got)
		assert.Equal(t, "mid/inner/ask", snap.Interrupts[0].Node, "the graph's own snapshot names interrupts by path")

		// A resume goes on from there; the subgraphs' snapshot of the next
		// pause is found through the resumed checkpoints.
		_, err = r.Resume(ctx, "t", "bob")
		require.NoError(t, err)
		done, err := r.State(ctx, "t", WithSubgraphs())
		require.NoError(t, err)
		assert.Empty(t, done.Next)
		assert.Empty(t, done.Subgraphs)
	})
}

func TestResumeAndUpdateStateStream(t *testing.T) {
	ctx := context.Background()
	forEachStore(t, func(t *testing.T, store checkpoint.Store) {
		var asked atomic.Int32
		r := linear(t, store, map[string]*atomic.Int32{}, asker("b", &asked))
		var end *state
		var err error
		for _, e := range r.Stream(ctx, &state{}, WithThread("t")) {
			err = e
		}
		require.True(t, IsInterrupt(err), "a streamed run pauses with the same error")

		var paths []string
		for c, e := range r.Stream(ctx, nil, WithThread("t"), WithResume("ann"), WithStreamModes(StreamUpdates)) {
			require.NoError(t, e)
			switch c.Mode {
			case StreamUpdates:
				paths = append(paths, c.Path)
			case StreamEnd:
				end = c.State
			}
		}
		assert.Equal(t, []string{"b", "c"}, paths, "the resumed run streams the nodes it runs")
		require.NotNil(t, end)
		assert.Equal(t, "ann", end.Owner)

		_, err = r.UpdateState(ctx, &state{Owner: "cat"}, WithThread("t"), AsNode("a"))
		require.NoError(t, err)
		paths = nil
		for c, e := range r.Stream(ctx, nil, WithThread("t"), WithStreamModes(StreamDebug)) {
			if e != nil {
				err = e
				break
			}
			paths = append(paths, c.Path+" "+c.Debug.Event)
		}
		require.True(t, IsInterrupt(err), "the edit's next node, b, asks again")
		assert.Equal(t, []string{"b start", "b end"}, paths, "a streamed continuation starts at the edit's next node")

		_, err = r.Invoke(ctx, &state{}, WithThread("t"), WithResume("x"))
		assert.ErrorContains(t, err, "give the zero input")
		_, err = r.Invoke(ctx, nil, WithResume("x"))
		assert.ErrorContains(t, err, "thread: empty")
	})
}

func TestAPausedBranchNodeTakesNoExit(t *testing.T) {
	ctx := context.Background()
	next := func(context.Context, *state) (string, error) { return "on", nil }
	for _, tc := range []struct {
		name string
		exit func(g *StateGraph[*state]) *StateGraph[*state]
	}{
		{"fixed edge", func(g *StateGraph[*state]) *StateGraph[*state] { return g.AddEdge("b1", "b1x") }},
		{"router", func(g *StateGraph[*state]) *StateGraph[*state] {
			return g.AddConditionalEdges("b1", ByFunc(next), map[string]string{"on": "b1x"})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			forEachStore(t, func(t *testing.T, store checkpoint.Store) {
				var asked atomic.Int32
				runs := map[string]*atomic.Int32{}
				g := New[*state]("exits").AddNode("a", counted("a", runs)).AddNode("b1", asker("b1", &asked)).
					AddNode("b1x", counted("b1x", runs)).AddNode("b2", counted("b2", runs)).AddNode("join", counted("join", runs)).
					AddEdge(START, "a").AddEdge("a", "b1").AddEdge("a", "b2").AddEdge("b1x", "join").AddEdge("b2", "join").AddEdge("join", END)
				r, err := tc.exit(g).Compile(ctx, WithCheckpointer(store))
				require.NoError(t, err)
				_, err = r.Invoke(ctx, &state{}, WithThread("t"))
				require.True(t, IsInterrupt(err), "%v", err)
				assert.EqualValues(t, 0, runs["b1x"].Load(), "the paused node's exit led nowhere")
				out, err := r.Resume(ctx, "t", "ann")
				require.NoError(t, err)
				assert.Equal(t, []string{"a", "b1", "b1x", "b2", "join"}, out.Path)
			})
		})
	}
}

func TestASubgraphInABranchAsksAsOneTask(t *testing.T) {
	ctx := context.Background()
	forEachStore(t, func(t *testing.T, store checkpoint.Store) {
		var asked atomic.Int32
		runs := map[string]*atomic.Int32{}
		sub, err := New[*state]("sub").AddNode("x", counted("x", runs)).AddNode("ask", asker("ask", &asked)).
			AddEdge(START, "x").AddEdge("x", "ask").AddEdge("ask", END).Compile(ctx, WithCheckpointer(store))
		require.NoError(t, err)
		r := fanIn(t, store, runs, Subgraph(sub))
		_, err = r.Invoke(ctx, &state{}, WithThread("t"))
		var paused *InterruptError
		require.ErrorAs(t, err, &paused)
		assert.Equal(t, "b1", paused.Pending().Node, "the branch's node asks, for the subgraph it runs")
		history, err := r.History(ctx, "t")
		require.NoError(t, err)
		for _, h := range history {
			for _, n := range h.Next {
				assert.NotContains(t, n, "/", "the subgraph wrote no checkpoint of its own from inside the branch")
			}
		}
		out, err := r.Resume(ctx, "t", "ann")
		require.NoError(t, err)
		assert.Equal(t, []string{"a", "x", "ask", "b2", "b2x", "join"}, out.Path)
		assert.EqualValues(t, 2, runs["x"].Load(), "the subgraph ran again from its start")
		assert.EqualValues(t, 1, runs["b2x"].Load())
	})
}

func TestInterruptInASendRunFails(t *testing.T) {
	ctx := context.Background()
	ask := func(ctx context.Context, s *state) (*state, error) {
		_, err := Interrupt[string](ctx, "?")
		return s, err
	}
	sends := func(_ context.Context, s *state) ([]Send[*state], error) {
		return []Send[*state]{{Key: "ask", State: &state{Item: 1}}, {Key: "ask", State: &state{Item: 2}}}, nil
	}
	r, err := New[*state]("send").AddNode("a", visit("a")).AddNode("ask", ask).AddNode("b", visit("b")).
		AddEdge(START, "a").AddConditionalEdges("a", BySend(sends), map[string]string{"ask": "ask"}).
		AddEdge("ask", "b").AddEdge("b", END).Compile(ctx, WithCheckpointer(checkpoint.NewMemory()))
	require.NoError(t, err)
	_, err = r.Invoke(ctx, &state{}, WithThread("t"))
	assert.ErrorContains(t, err, "in a Send's run", "a Send's runs are not checkpointed: the run fails, saying why")
	assert.False(t, IsInterrupt(err))
}
