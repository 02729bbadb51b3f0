package graph

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/checkpoint"
)

// counted is a node that records its name and counts its runs.
func counted(name string, runs map[string]*atomic.Int32) NodeFunc[*state] {
	runs[name] = &atomic.Int32{}
	return func(_ context.Context, s *state) (*state, error) {
		runs[name].Add(1)
		s.Path = append(s.Path, name)
		return s, nil
	}
}

func linear(t *testing.T, store checkpoint.Store, runs map[string]*atomic.Int32, b NodeFunc[*state]) *Runnable[*state] {
	t.Helper()
	r, err := New[*state]("linear").
		AddNode("a", counted("a", runs)).AddNode("b", b).AddNode("c", counted("c", runs)).
		AddEdge(START, "a").AddEdge("a", "b").AddEdge("b", "c").AddEdge("c", END).
		Compile(context.Background(), WithCheckpointer(store))
	require.NoError(t, err)
	return r
}

func TestThreadRecordsEveryStep(t *testing.T) {
	ctx := context.Background()
	runs := map[string]*atomic.Int32{}
	r := linear(t, checkpoint.NewMemory(), runs, counted("b", runs))
	out, err := r.Invoke(ctx, &state{}, WithThread("t1"))
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b", "c"}, out.Path)

	history, err := r.History(ctx, "t1")
	require.NoError(t, err)
	var next [][]string
	var sources []string
	for _, h := range history {
		next = append(next, h.Next)
		sources = append(sources, h.Metadata.Source)
	}
	assert.Equal(t, [][]string{nil, {"c"}, {"b"}, {"a"}}, next, "newest first: the end, then before each node")
	assert.Equal(t, []string{"loop", "loop", "loop", "input"}, sources)
	assert.Equal(t, []string{"a", "b"}, history[1].State.Path, "before c: what a and b did")
	assert.Equal(t, history[1].ID, history[0].Parent)
	last, err := r.History(ctx, "t1", Last(2))
	require.NoError(t, err)
	assert.Equal(t, []string{history[0].ID, history[1].ID}, []string{last[0].ID, last[1].ID})
	older, err := r.History(ctx, "t1", Before(history[1].ID), Last(1))
	require.NoError(t, err)
	require.Len(t, older, 1)
	assert.Equal(t, history[2].ID, older[0].ID)

	latest, err := r.State(ctx, "t1")
	require.NoError(t, err)
	assert.Equal(t, out.Path, latest.State.Path)

	again, err := r.Invoke(ctx, &state{}, WithThread("t1"))
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b", "c", "a", "b", "c"}, again.Path, "a second run starts on the thread's state")
	more, err := r.History(ctx, "t1")
	require.NoError(t, err)
	assert.Len(t, more, 8, "a second run continues the thread")
	assert.Equal(t, history[0].ID, more[4].ID)
	assert.Equal(t, history[0].ID, more[3].Parent, "its first checkpoint follows the first run's last")

	_, err = r.State(ctx, "other")
	assert.ErrorIs(t, err, checkpoint.ErrNotFound, "threads do not see each other")
}

func TestResumeAfterAFailureRunsOnlyWhatWasLeft(t *testing.T) {
	ctx := context.Background()
	runs := map[string]*atomic.Int32{}
	fail := true
	b := func(_ context.Context, s *state) (*state, error) {
		if fail {
			fail = false
			return nil, errors.New("down")
		}
		s.Path = append(s.Path, "b")
		return s, nil
	}
	r := linear(t, checkpoint.NewMemory(), runs, b)
	_, err := r.Invoke(ctx, &state{}, WithThread("t"))
	require.ErrorContains(t, err, "down")
	snap, err := r.State(ctx, "t")
	require.NoError(t, err)
	assert.Equal(t, []string{"b"}, snap.Next, "the failed node is next")

	out, err := r.Resume(ctx, "t", nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b", "c"}, out.Path)
	assert.EqualValues(t, 1, runs["a"].Load(), "a completed before the failure and does not run again")

	_, err = r.Resume(ctx, "t", nil)
	assert.ErrorContains(t, err, "the run ended; nothing to resume")
}

func TestInterruptAndResume(t *testing.T) {
	ctx := context.Background()
	runs := map[string]*atomic.Int32{}
	var before atomic.Int32
	review := func(ctx context.Context, s *state) (*state, error) {
		before.Add(1) // runs again when resumed: the re-entry rule
		first, err := Interrupt[string](ctx, "approve "+s.Owner+"?")
		if err != nil {
			return nil, err
		}
		second, err := Interrupt[string](ctx, "and the title?")
		if err != nil {
			return nil, err
		}
		s.Owner = first + "/" + second
		s.Path = append(s.Path, "b")
		return s, nil
	}
	r := linear(t, checkpoint.NewMemory(), runs, review)
	_, err := r.Invoke(ctx, &state{Owner: "draft"}, WithThread("t"))
	var paused *InterruptError
	require.ErrorAs(t, err, &paused)
	assert.Equal(t, "b", paused.Pending().Node)
	assert.JSONEq(t, `"approve draft?"`, string(paused.Pending().Payload))

	_, err = r.Resume(ctx, "t", "edited")
	require.ErrorAs(t, err, &paused, "the node's second question pauses again")
	assert.JSONEq(t, `"and the title?"`, string(paused.Pending().Payload))
	require.Len(t, paused.Interrupts, 2)
	assert.JSONEq(t, `"edited"`, string(paused.Interrupts[0].Value), "the first answer is kept for the next resume")

	out, err := r.Resume(ctx, "t", "Title")
	require.NoError(t, err)
	assert.Equal(t, "edited/Title", out.Owner)
	assert.Equal(t, []string{"a", "b", "c"}, out.Path)
	assert.EqualValues(t, 1, runs["a"].Load())
	assert.EqualValues(t, 3, before.Load(), "the node runs from its start each time")
}

func TestInterruptInsideASubgraph(t *testing.T) {
	ctx := context.Background()
	runs := map[string]*atomic.Int32{}
	ask := func(ctx context.Context, s *state) (*state, error) {
		v, err := Interrupt[int](ctx, "how many?")
		if err != nil {
			return nil, err
		}
		s.Count += v
		return s, nil
	}
	store := checkpoint.NewMemory()
	sub, err := New[*state]("sub").AddNode("x", counted("x", runs)).AddNode("ask", ask).
		AddEdge(START, "x").AddEdge("x", "ask").AddEdge("ask", END).Compile(ctx, WithCheckpointer(store))
	require.NoError(t, err)
	r, err := New[*state]("outer").AddNode("a", counted("a", runs)).AddNode("sub", Subgraph(sub)).AddNode("c", counted("c", runs)).
		AddEdge(START, "a").AddEdge("a", "sub").AddEdge("sub", "c").AddEdge("c", END).
		Compile(ctx, WithCheckpointer(store))
	require.NoError(t, err)

	_, err = r.Invoke(ctx, &state{}, WithThread("t"))
	var paused *InterruptError
	require.ErrorAs(t, err, &paused)
	assert.Equal(t, "sub/ask", paused.Pending().Node)

	out, err := r.Resume(ctx, "t", 7)
	require.NoError(t, err)
	assert.Equal(t, 7, out.Count)
	assert.Equal(t, []string{"a", "x", "c"}, out.Path)
	assert.EqualValues(t, 1, runs["x"].Load(), "the subgraph resumes at its node, not from its start")
}

func TestBreakpoints(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		opt    RunOption
		pauses string // the node the run stops before
	}{
		{"before", WithInterruptBefore("b"), "b"},
		{"after", WithInterruptAfter("b"), "c"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runs := map[string]*atomic.Int32{}
			r := linear(t, checkpoint.NewMemory(), runs, counted("b", runs))
			_, err := r.Invoke(ctx, &state{}, WithThread("t"), tc.opt)
			var paused *InterruptError
			require.ErrorAs(t, err, &paused)
			snap, err := r.State(ctx, "t")
			require.NoError(t, err)
			assert.Equal(t, []string{tc.pauses}, snap.Next)
			out, err := r.Resume(ctx, "t", nil, tc.opt)
			require.NoError(t, err, "resuming runs the node the breakpoint held")
			assert.Equal(t, []string{"a", "b", "c"}, out.Path)
		})
	}
}

func TestForkFromAnEarlierCheckpoint(t *testing.T) {
	ctx := context.Background()
	runs := map[string]*atomic.Int32{}
	r := linear(t, checkpoint.NewMemory(), runs, counted("b", runs))
	_, err := r.Invoke(ctx, &state{}, WithThread("t"))
	require.NoError(t, err)
	history, err := r.History(ctx, "t")
	require.NoError(t, err)
	beforeB := history[2]
	require.Equal(t, []string{"b"}, beforeB.Next)

	out, err := r.Resume(ctx, "t", nil, FromCheckpoint(beforeB.ID))
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b", "c"}, out.Path)
	assert.EqualValues(t, 1, runs["a"].Load())
	assert.EqualValues(t, 2, runs["b"].Load())
	after, err := r.History(ctx, "t")
	require.NoError(t, err)
	assert.Len(t, after, 6, "the fork adds its checkpoints and keeps the old ones")
	assert.Equal(t, beforeB.ID, after[1].Parent, "the fork's first checkpoint continues the one it forked from")
}

func TestInterruptNeedsAThread(t *testing.T) {
	ask := func(ctx context.Context, s *state) (*state, error) {
		_, err := Interrupt[string](ctx, "?")
		return s, err
	}
	g := New[*state]("nothread").AddNode("ask", ask).AddEdge(START, "ask").AddEdge("ask", END)
	_, err := run(t, g)
	assert.ErrorContains(t, err, "without a thread")
	r, err := g.Compile(context.Background())
	require.NoError(t, err)
	_, err = r.Invoke(context.Background(), &state{}, WithThread("t"))
	assert.ErrorContains(t, err, "no checkpointer")
}
