package checkpointtest

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/checkpoint"
)

// The subtests of states kept as pieces shared by a thread's checkpoints:
// each checkpoint writes only what changed since the thread's earlier ones,
// reads back byte for byte, and retention and Delete free what no
// checkpoint names any more. Those that count bytes run for a store that
// is a checkpoint.Meter (every shipped store is).
var pieceCases = []struct {
	name string
	test func(t *testing.T, s checkpoint.Store)
}{
	{"pieces: any state reads back byte for byte", testPieceRoundTrip},
	{"pieces: a checkpoint writes what changed", testWritesChanges},
	{"pieces: retention frees what no checkpoint names", testPiecesPruned},
	{"pieces: delete frees a thread's pieces only", testPiecesDeleted},
	{"pieces: prune while writing", testPruneWhileWriting},
	{"list without states", testListNoState},
}

// turnState is a chat-shaped state: a history of turns messages, a
// per-step counter and an answer.
func turnState(turns, step int, answer string) json.RawMessage {
	var msgs []string
	for i := range turns {
		msgs = append(msgs, fmt.Sprintf("question %d: how do I set the guard's mode to %d?", i, i%5),
			fmt.Sprintf("answer %d: open the configuration, find guard, set mode to %d and restart", i, i%5))
	}
	b, _ := json.Marshal(map[string]any{"session": "s1", "step": step, "messages": msgs, "answer": answer,
		"notes": strings.Repeat("n", 3000)})
	return b
}

func meter(t *testing.T, s checkpoint.Store) checkpoint.Meter {
	t.Helper()
	m, ok := s.(checkpoint.Meter)
	if !ok {
		t.Skipf("%T is no checkpoint.Meter", s)
	}
	return m
}

func stored(t *testing.T, m checkpoint.Meter, thread string) checkpoint.Stored {
	t.Helper()
	st, err := m.Stored(ctx(t), thread)
	require.NoError(t, err)
	return st
}

func putState(t *testing.T, s checkpoint.Store, thread string, state json.RawMessage) checkpoint.Checkpoint {
	t.Helper()
	cp := newCheckpoint(thread, 0)
	cp.State = state
	return put(t, s, cp)
}

func requireState(t *testing.T, s checkpoint.Store, thread, id string, want json.RawMessage) {
	t.Helper()
	got, err := s.Get(ctx(t), thread, id)
	require.NoError(t, err)
	require.True(t, string(want) == string(got.State), "checkpoint %s: state of %d bytes reads back as %d bytes", id, len(want), len(got.State))
}

func testPieceRoundTrip(t *testing.T, s checkpoint.Store) {
	long := strings.Repeat("long text, with commas } and ] brackets ", 2000)
	states := map[string]string{
		"empty object":          `{}`,
		"spaces between fields": "{ \"a\" : 1 ,\n\t\"b\" : [ 1 , 2 ] }",
		"escaped quotes":        `{"a":"say \"x,y\" \\","b":{"c":"}"},"d":"\\\\"}`,
		"array":                 `[1,{"a":2},"three"]`,
		"long string":           `"` + long + `"`,
		"number":                `42`,
		"long field":            `{"before":1,"long":"` + long + `","after":{"x":[1,2,3]}}`,
		"leading space":         ` {"a":1}`,
		"non-ASCII":             `{"текст":"naïve — ü","emoji":"🙂"}`,
	}
	for name, st := range states {
		t.Run(name, func(t *testing.T) {
			thread := "round-" + name
			first := putState(t, s, thread, json.RawMessage(st))
			again := putState(t, s, thread, json.RawMessage(st)) // every piece shared
			requireState(t, s, thread, first.ID, json.RawMessage(st))
			requireState(t, s, thread, again.ID, json.RawMessage(st))
			latest, err := s.Latest(ctx(t), thread)
			require.NoError(t, err)
			assert.Equal(t, st, string(latest.State))
			list, err := s.List(ctx(t), thread, checkpoint.ListOptions{})
			require.NoError(t, err)
			require.Len(t, list, 2)
			for _, cp := range list {
				assert.Equal(t, st, string(cp.State))
			}
		})
	}
	t.Run("no state", func(t *testing.T) {
		cp := newCheckpoint("none", 0)
		cp.State = nil
		out := put(t, s, cp)
		got, err := s.Get(ctx(t), "none", out.ID)
		require.NoError(t, err)
		assert.Empty(t, got.State)
	})
}

func testWritesChanges(t *testing.T, s checkpoint.Store) {
	m := meter(t, s)
	first := turnState(80, 1, "")
	require.Greater(t, len(first), 8<<10)
	before := m.Written()
	a := putState(t, s, "w", first)
	afterFirst := m.Written()
	assert.Equal(t, int64(1), afterFirst.Checkpoints-before.Checkpoints)
	assert.GreaterOrEqual(t, afterFirst.Bytes-before.Bytes, int64(len(first)), "the first checkpoint writes the whole state")

	step := turnState(80, 2, "") // a small field changed
	b := putState(t, s, "w", step)
	afterStep := m.Written()
	assert.Less(t, afterStep.Bytes-afterFirst.Bytes, int64(len(step)/4),
		"a step that changes a counter writes a small part of the state (%d of %d bytes)", afterStep.Bytes-afterFirst.Bytes, len(step))

	turn := turnState(81, 3, "an answer") // a turn added to the history
	c := putState(t, s, "w", turn)
	afterTurn := m.Written()
	assert.Less(t, afterTurn.Bytes-afterStep.Bytes, int64(len(turn)/2),
		"a turn added to the history writes its end (%d of %d bytes)", afterTurn.Bytes-afterStep.Bytes, len(turn))

	requireState(t, s, "w", a.ID, first)
	requireState(t, s, "w", b.ID, step)
	requireState(t, s, "w", c.ID, turn)
	st := stored(t, m, "w")
	assert.Less(t, st.Bytes, int64(len(first)+len(step)+len(turn))/2, "the three states share their pieces: %d bytes kept", st.Bytes)
	assert.GreaterOrEqual(t, st.Bytes, int64(len(turn)))
}

func testPiecesPruned(t *testing.T, s checkpoint.Store) {
	m := meter(t, s)
	var cps []checkpoint.Checkpoint
	var states []json.RawMessage
	for i := range 6 {
		st := turnState(30+i, i, fmt.Sprintf("answer %d", i))
		states = append(states, st)
		cps = append(cps, putState(t, s, "p", st))
	}
	all := stored(t, m, "p")
	assert.Equal(t, 4, prune(t, s, "p", checkpoint.Retention{KeepLast: 2}))
	left := stored(t, m, "p")
	assert.Less(t, left.Bytes, all.Bytes, "the pruned checkpoints' own pieces are freed")
	assert.GreaterOrEqual(t, left.Bytes, int64(len(states[5])), "the kept checkpoints' pieces stay")
	requireState(t, s, "p", cps[4].ID, states[4])
	requireState(t, s, "p", cps[5].ID, states[5])

	// A state that shares pieces with the pruned ones writes them again.
	again := putState(t, s, "p", states[0])
	requireState(t, s, "p", again.ID, states[0])

	assert.Equal(t, 3, prune(t, s, "", checkpoint.Retention{KeepLast: 0, MaxAge: 1}), "all of them, through every thread")
	assert.Equal(t, checkpoint.Stored{}, stored(t, m, "p"), "a thread with no checkpoints keeps no pieces")
}

func testPiecesDeleted(t *testing.T, s checkpoint.Store) {
	m := meter(t, s)
	st := turnState(50, 0, "same in both threads")
	a := putState(t, s, "a", st)
	b := putState(t, s, "b", st)
	inB := stored(t, m, "b")
	require.Positive(t, inB.Pieces)
	require.NoError(t, s.Delete(ctx(t), "a"))
	assert.Equal(t, checkpoint.Stored{}, stored(t, m, "a"))
	assert.Equal(t, inB, stored(t, m, "b"), "the other thread keeps its own copy")
	requireState(t, s, "b", b.ID, st)
	_, err := s.Get(ctx(t), "a", a.ID)
	require.ErrorIs(t, err, checkpoint.ErrNotFound)
	assert.Equal(t, inB, stored(t, m, ""), "every thread: only b's")
}

// testPruneWhileWriting prunes a thread to its latest checkpoint while
// writers add checkpoints whose states share pieces with the pruned ones:
// every checkpoint left must read back as it was put.
func testPruneWhileWriting(t *testing.T, s checkpoint.Store) {
	const writers, puts = 3, 12
	var mu sync.Mutex
	want := map[string]json.RawMessage{}
	var wg sync.WaitGroup
	errs := make(chan error, writers+1)
	for w := range writers {
		wg.Go(func() {
			for i := range puts {
				cp := newCheckpoint("busy", i)
				cp.State = turnState(20+i%4, w, "") // states recur: their pieces are shared and pruned
				out, err := s.Put(ctx(t), cp)
				if err != nil {
					errs <- err
					return
				}
				mu.Lock()
				want[out.ID] = cp.State
				mu.Unlock()
			}
		})
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range puts * 2 {
			if _, err := s.Prune(ctx(t), "busy", checkpoint.Retention{KeepLast: 1}); err != nil {
				errs <- err
				return
			}
		}
	}()
	wg.Wait()
	<-done
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	list, err := s.List(ctx(t), "busy", checkpoint.ListOptions{})
	require.NoError(t, err)
	require.NotEmpty(t, list)
	for _, cp := range list {
		assert.Equal(t, string(want[cp.ID]), string(cp.State), "checkpoint %s", cp.ID)
	}
}

// testPiecesAcrossProcesses: a process that wrote a state, whose pieces
// the other process then deleted, writes them again when it puts the same
// state (it must not trust what it remembers of the thread).
func testPiecesAcrossProcesses(t *testing.T, first, second checkpoint.Store) {
	st := turnState(30, 0, "")
	putState(t, first, "t1", st)
	require.NoError(t, second.Delete(ctx(t), "t1"))
	again := putState(t, first, "t1", st)
	requireState(t, second, "t1", again.ID, st)

	putState(t, first, "t2", st)
	putState(t, first, "t2", turnState(31, 1, ""))
	_, err := second.Prune(ctx(t), "t2", checkpoint.Retention{KeepLast: 1})
	require.NoError(t, err)
	last := putState(t, first, "t2", st)
	requireState(t, second, "t2", last.ID, st)
}

// testListNoState: ListOptions.NoState lists the same checkpoints with
// their states (the checkpoint's and its branches') left out.
func testListNoState(t *testing.T, s checkpoint.Store) {
	cps := putN(t, s, "t1", 3)
	paused := newCheckpoint("t1", 3)
	paused.Parent, paused.Next = cps[2].ID, []string{"tools"}
	paused.State = turnState(20, 3, "")
	paused.Interrupts = []checkpoint.Interrupt{{ID: "a1", Node: "tools", Payload: json.RawMessage(`{"q":1}`)}}
	paused.Branches = []checkpoint.Branch{{Kind: checkpoint.BranchPaused, Node: "tools", State: json.RawMessage(`{"count":1}`)}}
	cps = append(cps, put(t, s, paused))
	for _, o := range []checkpoint.ListOptions{{}, {Limit: 1}, {Limit: 2, Before: cps[3].ID}} {
		full, err := s.List(ctx(t), "t1", o)
		require.NoError(t, err)
		o.NoState = true
		heads, err := s.List(ctx(t), "t1", o)
		require.NoError(t, err)
		require.Equal(t, len(full), len(heads), "%+v", o)
		for i := range full {
			want := full[i]
			want.State = nil
			want.Branches = append([]checkpoint.Branch(nil), want.Branches...)
			for j := range want.Branches {
				want.Branches[j].State = nil
			}
			requireSame(t, want, heads[i])
		}
	}
	latest, err := s.List(ctx(t), "t1", checkpoint.ListOptions{Limit: 1, NoState: true})
	require.NoError(t, err)
	require.Len(t, latest, 1)
	assert.Equal(t, cps[3].ID, latest[0].ID, "Limit 1 is the latest's head")
	assert.Equal(t, []string{"tools"}, latest[0].Next)
	require.Len(t, latest[0].Interrupts, 1)
	none, err := s.List(ctx(t), "missing", checkpoint.ListOptions{Limit: 1, NoState: true})
	require.NoError(t, err)
	assert.Empty(t, none)
}
