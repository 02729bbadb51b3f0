package graph

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/checkpoint"
)

var durabilities = []Durability{DurabilitySync, DurabilityAsync, DurabilityExit}

// forEachDurability runs f once per durability and store.
func forEachDurability(t *testing.T, f func(t *testing.T, d Durability, store checkpoint.Store)) {
	for _, d := range durabilities {
		t.Run(d.String(), func(t *testing.T) {
			forEachStore(t, func(t *testing.T, store checkpoint.Store) { f(t, d, store) })
		})
	}
}

// puts records the Puts a store is given, in order; it can be made to
// fail them (failAt: the n-th Put from 1 and every later one) or to take
// its time.
type puts struct {
	checkpoint.Store
	mu     sync.Mutex
	seen   []checkpoint.Checkpoint
	failAt int
	delay  time.Duration
}

var errDisk = errors.New("disk full")

func (p *puts) Put(ctx context.Context, cp checkpoint.Checkpoint) (checkpoint.Checkpoint, error) {
	time.Sleep(p.delay)
	p.mu.Lock()
	n := len(p.seen) + 1
	fail := p.failAt > 0 && n >= p.failAt
	if !fail {
		p.seen = append(p.seen, cp)
	}
	p.mu.Unlock()
	if fail {
		return checkpoint.Checkpoint{}, errDisk
	}
	return p.Store.Put(ctx, cp)
}

func (p *puts) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.seen)
}

// history is the thread's checkpoints, oldest first.
func history(t *testing.T, r *Runnable[*state], thread string) []Snapshot[*state] {
	t.Helper()
	h, err := r.History(context.Background(), thread)
	require.NoError(t, err)
	for i, j := 0, len(h)-1; i < j; i, j = i+1, j-1 {
		h[i], h[j] = h[j], h[i]
	}
	return h
}

func nexts(h []Snapshot[*state]) [][]string {
	var out [][]string
	for _, s := range h {
		out = append(out, s.Next)
	}
	return out
}

// TestDurabilityWritesWhenItSays: the same runs, written at each step
// (sync, async: all written when Invoke returns, in order, each continuing
// the one before) or once per run (exit: the end, continuing where the run
// started).
func TestDurabilityWritesWhenItSays(t *testing.T) {
	ctx := context.Background()
	forEachDurability(t, func(t *testing.T, d Durability, store checkpoint.Store) {
		runs := map[string]*atomic.Int32{}
		p := &puts{Store: store, delay: time.Millisecond} // async writes lag behind the steps
		r := linear(t, p, runs, counted("b", runs))
		out, err := r.Invoke(ctx, &state{}, WithThread("t"), WithDurability(d))
		require.NoError(t, err)
		assert.Equal(t, []string{"a", "b", "c"}, out.Path)
		h := history(t, r, "t")
		if d == DurabilityExit {
			require.Len(t, h, 1, "one checkpoint per run")
			assert.Nil(t, h[0].Next)
			assert.Empty(t, h[0].Parent, "it continues where the run started: nothing")
			assert.Equal(t, 3, h[0].Metadata.Step, "steps count as if each was written")
			assert.Equal(t, []string{"a", "b", "c"}, h[0].State.Path)
		} else {
			assert.Equal(t, [][]string{{"a"}, {"b"}, {"c"}, nil}, nexts(h), "every step, in order, once Invoke returns")
			for i, s := range h {
				assert.Equal(t, i, s.Metadata.Step)
				if i > 0 {
					assert.Equal(t, h[i-1].ID, s.Parent, "each continues the one before")
				}
			}
			assert.Equal(t, []string{"a", "b"}, h[2].State.Path, "before c: what a and b did, not what c did after")
		}

		again, err := r.Invoke(ctx, &state{}, WithThread("t"), WithDurability(d))
		require.NoError(t, err)
		assert.Equal(t, []string{"a", "b", "c", "a", "b", "c"}, again.Path, "the second run starts on the first's end")
		h2 := history(t, r, "t")
		first := len(h)
		if d == DurabilityExit {
			require.Len(t, h2, 2)
			assert.Equal(t, h[0].ID, h2[1].Parent)
			assert.Equal(t, 7, h2[1].Metadata.Step)
		} else {
			require.Len(t, h2, 8)
			assert.Equal(t, h[first-1].ID, h2[first].Parent)
		}
		assert.Equal(t, len(h2), p.count(), "the store was given nothing else")
	})
}

func TestDurabilityInterruptAndResume(t *testing.T) {
	ctx := context.Background()
	forEachDurability(t, func(t *testing.T, d Durability, store checkpoint.Store) {
		runs := map[string]*atomic.Int32{}
		var asked atomic.Int32
		review := func(ctx context.Context, s *state) (*state, error) {
			asked.Add(1)
			first, err := Interrupt[string](ctx, "approve?")
			if err != nil {
				return nil, err
			}
			s.Owner, s.Path = first, append(s.Path, "b")
			return s, nil
		}
		r := linear(t, store, runs, review)
		_, err := r.Invoke(ctx, &state{Owner: "draft"}, WithThread("t"), WithDurability(d))
		var paused *InterruptError
		require.ErrorAs(t, err, &paused)
		snap, err := r.State(ctx, "t")
		require.NoError(t, err)
		assert.Equal(t, paused.Checkpoint, snap.ID, "the pause is written before Invoke returns")
		assert.Equal(t, []string{"b"}, snap.Next)
		assert.Equal(t, []string{"a"}, snap.State.Path, "the paused node's input")
		assert.Equal(t, "draft", snap.State.Owner)
		written := map[Durability]int{DurabilitySync: 3, DurabilityAsync: 3, DurabilityExit: 1}[d]
		assert.Len(t, history(t, r, "t"), written)

		out, err := r.Resume(ctx, "t", "ann", WithDurability(d))
		require.NoError(t, err)
		assert.Equal(t, "ann", out.Owner)
		assert.Equal(t, []string{"a", "b", "c"}, out.Path)
		assert.EqualValues(t, 1, runs["a"].Load())
		assert.EqualValues(t, 2, asked.Load())
		h := history(t, r, "t")
		assert.Len(t, h, written+map[Durability]int{DurabilitySync: 2, DurabilityAsync: 2, DurabilityExit: 1}[d])
		assert.Nil(t, h[len(h)-1].Next)
		for i := 1; i < len(h); i++ {
			assert.Equal(t, h[i-1].ID, h[i].Parent)
		}
	})
}

// TestDurabilityExitFailure: a run that fails writes the checkpoint it
// failed at, continuing the one it started from; Resume goes on there.
func TestDurabilityExitFailure(t *testing.T) {
	ctx := context.Background()
	forEachStore(t, func(t *testing.T, store checkpoint.Store) {
		runs := map[string]*atomic.Int32{}
		var fail atomic.Bool
		b := func(_ context.Context, s *state) (*state, error) {
			if fail.Load() {
				return nil, errors.New("down")
			}
			s.Path = append(s.Path, "b")
			return s, nil
		}
		p := &puts{Store: store}
		r := linear(t, p, runs, b)
		done, err := r.Invoke(ctx, &state{}, WithThread("t"), WithDurability(DurabilityExit))
		require.NoError(t, err)
		durable, err := r.State(ctx, "t")
		require.NoError(t, err)

		fail.Store(true)
		_, err = r.Invoke(ctx, &state{Owner: "second"}, WithThread("t"), WithDurability(DurabilityExit))
		require.ErrorContains(t, err, "down")
		h := history(t, r, "t")
		require.Len(t, h, 2, "the failed run wrote one checkpoint")
		failed := h[1]
		assert.Equal(t, []string{"b"}, failed.Next, "the failed node is next")
		assert.Equal(t, durable.ID, failed.Parent)
		assert.Equal(t, append(done.Path, "a"), failed.State.Path, "b's input")
		assert.Equal(t, "second", failed.State.Owner)

		fail.Store(false)
		out, err := r.Resume(ctx, "t", nil, WithDurability(DurabilityExit))
		require.NoError(t, err)
		assert.Equal(t, []string{"a", "b", "c", "a", "b", "c"}, out.Path)
		assert.EqualValues(t, 2, runs["a"].Load(), "a completed before the failure and did not run again")
		assert.Equal(t, 3, p.count())
	})
}

// dying is a store of a process that dies: once killed, nothing it is
// given reaches the store.
type dying struct {
	checkpoint.Store
	dead atomic.Bool
}

var errDead = errors.New("the process died")

func (d *dying) Put(ctx context.Context, cp checkpoint.Checkpoint) (checkpoint.Checkpoint, error) {
	if d.dead.Load() {
		return checkpoint.Checkpoint{}, errDead
	}
	return d.Store.Put(ctx, cp)
}

// TestDurabilityCrash: a process that dies while node b runs leaves the
// thread at its last durable checkpoint: before b with sync, where the run
// started with exit. Another process goes on from there.
func TestDurabilityCrash(t *testing.T) {
	ctx := context.Background()
	for _, d := range []Durability{DurabilitySync, DurabilityExit} {
		t.Run(d.String(), func(t *testing.T) {
			forEachStore(t, func(t *testing.T, store checkpoint.Store) {
				runs := map[string]*atomic.Int32{}
				inB, release := make(chan struct{}), make(chan struct{})
				var hang atomic.Bool
				b := func(_ context.Context, s *state) (*state, error) {
					if hang.Load() {
						close(inB)
						<-release
					}
					s.Path = append(s.Path, "b")
					return s, nil
				}
				proc := &dying{Store: store}
				r := linear(t, proc, runs, b)
				_, err := r.Invoke(ctx, &state{Owner: "first"}, WithThread("t"), WithDurability(d))
				require.NoError(t, err)
				before, err := r.State(ctx, "t")
				require.NoError(t, err)

				hang.Store(true)
				errc := make(chan error, 1)
				go func() {
					_, err := r.Invoke(ctx, &state{Owner: "second"}, WithThread("t"), WithDurability(d))
					errc <- err
				}()
				<-inB
				proc.dead.Store(true) // the process dies here: what it writes from now on is lost
				close(release)
				require.ErrorIs(t, <-errc, errDead)

				restarted := linear(t, store, map[string]*atomic.Int32{"b": {}}, b) // another process, on the same store
				hang.Store(false)
				latest, err := restarted.State(ctx, "t")
				require.NoError(t, err)
				if d == DurabilityExit {
					assert.Equal(t, before.ID, latest.ID, "the thread is where the run started")
					assert.Nil(t, latest.Next)
					assert.Equal(t, "first", latest.State.Owner)
					out, err := restarted.Invoke(ctx, &state{Owner: "third"}, WithThread("t"))
					require.NoError(t, err)
					assert.Equal(t, []string{"a", "b", "c", "a", "b", "c"}, out.Path, "the lost run left no trace")
					return
				}
				assert.Equal(t, []string{"b"}, latest.Next, "sync: the thread waits before b")
				assert.Equal(t, "second", latest.State.Owner)
				out, err := restarted.Resume(ctx, "t", nil)
				require.NoError(t, err)
				assert.Equal(t, []string{"a", "b", "c", "a", "b", "c"}, out.Path, "b and c ran; a did not run again")
			})
		})
	}
}

// TestDurabilityAsyncWriteFails: a failed background write is the run's
// error, and nothing after it is written.
func TestDurabilityAsyncWriteFails(t *testing.T) {
	ctx := context.Background()
	forEachStore(t, func(t *testing.T, store checkpoint.Store) {
		runs := map[string]*atomic.Int32{}
		p := &puts{Store: store, failAt: 2}
		r := linear(t, p, runs, counted("b", runs))
		_, err := r.Invoke(ctx, &state{}, WithThread("t"), WithDurability(DurabilityAsync))
		require.ErrorIs(t, err, errDisk)
		assert.ErrorContains(t, err, "graph linear")
		assert.Equal(t, [][]string{{"a"}}, nexts(history(t, r, "t")), "the write before the failure; none after it")
	})
}

func TestDurabilityExitParallelBranchesAndSubgraphs(t *testing.T) {
	ctx := context.Background()
	forEachStore(t, func(t *testing.T, store checkpoint.Store) {
		var asked atomic.Int32
		runs := map[string]*atomic.Int32{}
		p := &puts{Store: store}
		r := fanIn(t, p, runs, asker("b1", &asked))
		_, err := r.Invoke(ctx, &state{}, WithThread("t"), WithDurability(DurabilityExit))
		var paused *InterruptError
		require.ErrorAs(t, err, &paused)
		snap, err := r.State(ctx, "t")
		require.NoError(t, err)
		assert.Equal(t, []string{"b1"}, snap.Next)
		assert.Equal(t, []string{"a"}, snap.State.Path, "the state the branches started from")
		out, err := r.Resume(ctx, "t", "ann", WithDurability(DurabilityExit))
		require.NoError(t, err)
		assert.Equal(t, "ann", out.Owner)
		assert.Equal(t, []string{"a", "b1", "b2", "b2x", "join"}, out.Path)
		assert.Equal(t, 2, p.count(), "the pause and the end")

		ask := func(ctx context.Context, s *state) (*state, error) {
			v, err := Interrupt[int](ctx, "how many?")
			if err != nil {
				return nil, err
			}
			s.Count += v
			return s, nil
		}
		sub, err := New[*state]("sub").AddNode("x", counted("x", runs)).AddNode("ask", ask).
			AddEdge(START, "x").AddEdge("x", "ask").AddEdge("ask", END).Compile(ctx, WithCheckpointer(p))
		require.NoError(t, err)
		outer, err := New[*state]("outer").AddNode("a", counted("a", runs)).AddNode("sub", Subgraph(sub)).
			AddEdge(START, "a").AddEdge("a", "sub").AddEdge("sub", END).Compile(ctx, WithCheckpointer(p))
		require.NoError(t, err)
		_, err = outer.Invoke(ctx, &state{}, WithThread("s"), WithDurability(DurabilityExit))
		require.ErrorAs(t, err, &paused)
		assert.Equal(t, "sub/ask", paused.Pending().Node)
		final, err := outer.Resume(ctx, "s", 5, WithDurability(DurabilityExit))
		require.NoError(t, err)
		assert.Equal(t, 5, final.Count)
		assert.EqualValues(t, 1, runs["x"].Load(), "the subgraph resumed at its node")
		assert.Equal(t, 4, p.count())
	})
}

// TestDurabilityCancelledRun: exit writes where a cancelled run stopped.
func TestDurabilityCancelledRun(t *testing.T) {
	runs := map[string]*atomic.Int32{}
	ctx, cancel := context.WithCancel(context.Background())
	b := func(ctx context.Context, s *state) (*state, error) {
		cancel()
		return nil, ctx.Err()
	}
	r := linear(t, checkpoint.NewMemory(), runs, b)
	_, err := r.Invoke(ctx, &state{}, WithThread("t"), WithDurability(DurabilityExit))
	require.ErrorIs(t, err, context.Canceled)
	snap, err := r.State(context.Background(), "t")
	require.NoError(t, err)
	assert.Equal(t, []string{"b"}, snap.Next)
}

func TestDurabilityIsChecked(t *testing.T) {
	r := linear(t, checkpoint.NewMemory(), map[string]*atomic.Int32{}, counted("b", map[string]*atomic.Int32{}))
	_, err := r.Invoke(context.Background(), &state{}, WithThread("t"), WithDurability(Durability(7)))
	assert.ErrorContains(t, err, "WithDurability(7)")
	assert.Equal(t, "Durability(7)", Durability(7).String())
}
