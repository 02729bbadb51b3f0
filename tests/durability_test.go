package tests

import (
	"context"
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/checkpoint/sqlite"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/contracts"
)

// process is a thread store as one process sees it: it counts the
// checkpoints the process puts, and once the process dies nothing more
// reaches the store.
type process struct {
	checkpoint.Store
	checkpoint.Locker
	puts atomic.Int32
	dead atomic.Bool
}

var errDied = errors.New("the process died")

func (p *process) Put(ctx context.Context, cp checkpoint.Checkpoint) (checkpoint.Checkpoint, error) {
	if p.dead.Load() {
		return checkpoint.Checkpoint{}, errDied
	}
	p.puts.Add(1)
	return p.Store.Put(ctx, cp)
}

func sqliteStore(t *testing.T) checkpoint.Store {
	s, err := sqlite.Open(filepath.Join(t.TempDir(), "threads.db"))
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// A session's turn writes one checkpoint, when it ends, and after the
// first a default turn writes its changes only: the thread's new pieces.
func TestATurnWritesOneCheckpoint(t *testing.T) {
	ctx := context.Background()
	store := sqliteStore(t)
	p := &process{Store: store, Locker: store.(checkpoint.Locker)}
	a := newAgent(t, agent.Options{Store: p})
	meter := store.(checkpoint.Meter)
	var written []int64
	for i := 1; i <= 4; i++ {
		before := meter.Written().Bytes
		s, err := a.RunState(ctx, agent.Turn{Thread: "s", Message: "How do I configure the safety guard?"})
		require.NoError(t, err)
		require.Equal(t, i, s.Turn)
		assert.EqualValues(t, i, p.puts.Load(), "turn %d: one checkpoint a turn", i)
		written = append(written, meter.Written().Bytes-before)
	}
	t.Logf("bytes written per turn: %v", written)
	for i, n := range written[1:] {
		assert.LessOrEqual(t, n, int64(30<<10), "turn %d writes what changed", i+2)
	}
	last, err := a.LastTurn(ctx, "s")
	require.NoError(t, err)
	assert.Equal(t, 4, last.State.Turn)
	assert.Empty(t, last.Next)
}

// A draft held for review is written when the turn pauses, and the
// person's answer resumes it there: one checkpoint each.
func TestAReviewedTurnWritesItsPauseAndItsEnd(t *testing.T) {
	ctx := context.Background()
	mem := checkpoint.NewMemory()
	p := &process{Store: mem, Locker: mem.(checkpoint.Locker)}
	review := func(c *config.Config) { c.Guardian.HumanReview = []string{contracts.ReviewOnFail} }
	a := newAgent(t, agent.Options{Model: failing(), Store: p}, review)
	_, err := a.Run(ctx, agent.Turn{Thread: "r", Message: "How do I set the guard mode?"})
	thread, _, held := agent.Paused(err)
	require.True(t, held, "%v", err)
	assert.EqualValues(t, 1, p.puts.Load(), "the pause")

	// Another process, as after a restart, answers it.
	b := newAgent(t, agent.Options{Model: failing(), Store: mem}, review)
	res, err := b.Resume(ctx, thread, contracts.ReviewAnswer{Decision: contracts.ReviewApprove})
	require.NoError(t, err)
	assert.Contains(t, res.Answer, "Set guard.mode to enforce.")
	last, err := b.LastTurn(ctx, "r")
	require.NoError(t, err)
	assert.Empty(t, last.Next)
	list, err := mem.List(ctx, "r", checkpoint.ListOptions{})
	require.NoError(t, err)
	assert.Len(t, list, 2, "the pause and the end")
}

// A process that dies mid-turn leaves its session at the last turn that
// ended: the next turn, in another process, is the second.
func TestATurnCutByADeadProcessLeavesNoTrace(t *testing.T) {
	ctx := context.Background()
	store := sqliteStore(t)
	p := &process{Store: store, Locker: store.(checkpoint.Locker)}
	a := newAgent(t, agent.Options{Store: p})
	first, err := a.RunState(ctx, agent.Turn{Thread: "s", Message: "How do I configure the safety guard?"})
	require.NoError(t, err)
	before, err := store.Latest(ctx, "s")
	require.NoError(t, err)

	cut := agent.Turn{Thread: "s", Message: "What does report mode do?", Events: func(ev contracts.Event) {
		if ev.Kind == contracts.EventToolCall {
			p.dead.Store(true) // the process dies while the agent calls its tools
		}
	}}
	_, err = a.RunState(ctx, cut)
	require.ErrorIs(t, err, errDied)
	latest, err := store.Latest(ctx, "s")
	require.NoError(t, err)
	assert.Equal(t, before.ID, latest.ID, "nothing of the cut turn was written")

	b := newAgent(t, agent.Options{Store: store})
	lctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	// The dead process's lease on the thread is freed as it would expire.
	var next *contracts.ChatState
	require.Eventually(t, func() bool {
		next, err = b.RunState(lctx, agent.Turn{Thread: "s", Message: "And how do I switch it back?"})
		return !errors.Is(err, agent.ErrThreadBusy)
	}, time.Minute, 100*time.Millisecond)
	require.NoError(t, err)
	assert.Equal(t, 2, next.Turn)
	assert.Equal(t, first.UserMessage, next.Messages[0].Content)
}
