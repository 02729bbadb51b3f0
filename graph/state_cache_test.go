package graph

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/checkpoint"
)

// keptNote is a state with a field JSON leaves out: it tells a kept state
// (CacheStates) from one read back from the store.
type keptNote struct {
	Turns []string
	Seen  string `json:"-"`
}

func noteGraph(t *testing.T, store checkpoint.Store, opts ...CheckpointerOption) (*Runnable[*keptNote], *atomic.Int32) {
	t.Helper()
	var runs atomic.Int32
	r, err := New[*keptNote]("notes").
		AddNode("turn", func(_ context.Context, s *keptNote) (*keptNote, error) {
			runs.Add(1)
			s.Turns = append(s.Turns, "t")
			s.Seen = "in memory"
			return s, nil
		}).
		AddEdge(START, "turn").AddEdge("turn", END).
		Compile(context.Background(), WithCheckpointer(store, opts...))
	require.NoError(t, err)
	return r, &runs
}

func TestCacheStates(t *testing.T) {
	ctx := context.Background()
	for _, d := range durabilities {
		t.Run(d.String(), func(t *testing.T) {
			forEachStore(t, func(t *testing.T, store checkpoint.Store) {
				r, _ := noteGraph(t, store, CacheStates(2))
				out, err := r.Invoke(ctx, &keptNote{}, WithThread("a"), WithDurability(d))
				require.NoError(t, err)
				snap, err := r.State(ctx, "a")
				require.NoError(t, err)
				assert.Equal(t, "in memory", snap.State.Seen, "the state the run ended with, not a decode of the stored one")
				assert.Equal(t, []string{"t"}, snap.State.Turns)
				assert.Nil(t, snap.Next)
				assert.NotEmpty(t, snap.ID)

				snap.State.Turns[0] = "changed"
				out.Turns[0] = "changed too"
				again, err := r.State(ctx, "a")
				require.NoError(t, err)
				assert.Equal(t, []string{"t"}, again.State.Turns, "each reader gets a copy of its own")

				next, err := r.Invoke(ctx, &keptNote{}, WithThread("a"), WithDurability(d))
				require.NoError(t, err)
				assert.Equal(t, []string{"t", "t"}, next.Turns, "a run merges its input into the kept state")

				// Another writer moves the thread on: the kept state is no longer the latest.
				other, _ := noteGraph(t, store)
				_, err = other.Invoke(ctx, &keptNote{}, WithThread("a"))
				require.NoError(t, err)
				read, err := r.State(ctx, "a")
				require.NoError(t, err)
				assert.Empty(t, read.State.Seen, "read back from the store")
				assert.Equal(t, []string{"t", "t", "t"}, read.State.Turns)

				// Two threads fit; a third pushes out the one used least recently.
				for _, th := range []string{"b", "c"} {
					_, err := r.Invoke(ctx, &keptNote{}, WithThread(th), WithDurability(d))
					require.NoError(t, err)
				}
				b, err := r.State(ctx, "b")
				require.NoError(t, err)
				assert.Equal(t, "in memory", b.State.Seen)
				_, err = r.Invoke(ctx, &keptNote{}, WithThread("d"), WithDurability(d))
				require.NoError(t, err)
				c, err := r.State(ctx, "c")
				require.NoError(t, err)
				assert.Empty(t, c.State.Seen, "c was pushed out")
				b, err = r.State(ctx, "b")
				require.NoError(t, err)
				assert.Equal(t, "in memory", b.State.Seen, "b was read last: it stayed")

				_, err = r.State(ctx, "missing")
				assert.ErrorIs(t, err, checkpoint.ErrNotFound)
			})
		})
	}
}

// A paused run keeps no state: reading the thread decodes its checkpoint.
func TestCacheStatesKeepsOnlyEnds(t *testing.T) {
	ctx := context.Background()
	r, err := New[*keptNote]("ask").
		AddNode("ask", func(ctx context.Context, s *keptNote) (*keptNote, error) {
			s.Seen = "in memory"
			v, err := Interrupt[string](ctx, "?")
			if err != nil {
				return nil, err
			}
			s.Turns = append(s.Turns, v)
			return s, nil
		}).
		AddEdge(START, "ask").AddEdge("ask", END).
		Compile(ctx, WithCheckpointer(checkpoint.NewMemory(), CacheStates(8)))
	require.NoError(t, err)
	_, err = r.Invoke(ctx, &keptNote{}, WithThread("t"))
	require.True(t, IsInterrupt(err))
	snap, err := r.State(ctx, "t")
	require.NoError(t, err)
	assert.Empty(t, snap.State.Seen)
	assert.Equal(t, []string{"ask"}, snap.Next)
	require.Len(t, snap.Interrupts, 1)
	assert.NotEmpty(t, snap.Interrupts[0].ID)
	out, err := r.Resume(ctx, "t", "yes")
	require.NoError(t, err)
	assert.Equal(t, []string{"yes"}, out.Turns)
}
