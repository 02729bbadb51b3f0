package agent_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/models"
)

// heldAgent is an agent whose turns wait in their first model call until
// their context ends; started says a call began.
func heldAgent(t *testing.T) (*agent.Agent, <-chan struct{}) {
	t.Helper()
	started := make(chan struct{}, 16)
	held := models.New("Held", func(ctx context.Context, _ []*schema.Message, _ *model.Options) ([]*schema.Message, error) {
		select {
		case started <- struct{}{}:
		default:
		}
		<-ctx.Done()
		return nil, ctx.Err()
	})
	store := checkpoint.NewMemory()
	t.Cleanup(func() { store.Close() })
	return newAgent(t, agent.Options{Model: held, Searcher: contactSearch{}, Store: store}), started
}

// runInBackground starts a turn and returns what waits for its error.
func runInBackground(ctx context.Context, a *agent.Agent, turn agent.Turn) <-chan error {
	done := make(chan error, 1)
	go func() {
		_, err := a.RunState(ctx, turn)
		done <- err
	}()
	return done
}

func waitStarted(t *testing.T, started <-chan struct{}) {
	t.Helper()
	select {
	case <-started:
	case <-time.After(30 * time.Second):
		t.Fatal("the turn did not start")
	}
}

// A thread's turns run one at a time, also where no server takes the lock
// (the command line's chat --thread, a worker): a second is refused with
// ErrThreadBusy naming the process that runs the first.
func TestTurnsOfOneThreadRunOneAtATime(t *testing.T) {
	a, started := heldAgent(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	firstCtx, stopFirst := context.WithCancel(ctx)
	first := runInBackground(firstCtx, a, agent.Turn{Thread: "t", Message: question})
	waitStarted(t, started)

	_, err := a.RunState(ctx, agent.Turn{Thread: "t", Message: "And the phone number?"})
	require.ErrorIs(t, err, agent.ErrThreadBusy)
	var busy *checkpoint.BusyError
	require.ErrorAs(t, err, &busy)
	assert.Equal(t, "t", busy.Thread)
	assert.Contains(t, busy.Holder, fmt.Sprintf("process %d on ", os.Getpid()))
	_, err = a.LockThread(ctx, "t", "someone")
	require.ErrorIs(t, err, agent.ErrThreadBusy)

	other, err := a.LockThread(ctx, "other", "someone")
	require.NoError(t, err, "another thread is free")
	require.NoError(t, other.Release())

	stopFirst()
	require.Error(t, <-first)
	lock, err := a.LockThread(ctx, "t", "someone")
	require.NoError(t, err, "a turn that failed frees its thread")
	require.NoError(t, lock.Release())
}

// A lock taken ahead (a server's, before it answers) is the turn's: the turn
// runs under it, the caller's Release does not free it while the turn
// runs, and the turn frees it when it ends.
func TestTurnRunsUnderTheCallersLock(t *testing.T) {
	a, started := heldAgent(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	lock, err := a.LockThread(ctx, "t", "request r1")
	require.NoError(t, err)
	turnCtx, stopTurn := context.WithCancel(ctx)
	done := runInBackground(turnCtx, a, agent.Turn{Thread: "t", Message: question, Lock: lock})
	waitStarted(t, started)

	require.NoError(t, lock.Release())
	_, err = a.LockThread(ctx, "t", "request r2")
	var busy *checkpoint.BusyError
	require.ErrorAs(t, err, &busy, "the running turn keeps its lock")
	assert.Equal(t, "request r1", busy.Holder)

	stopTurn()
	require.Error(t, <-done)
	again, err := a.LockThread(ctx, "t", "request r2")
	require.NoError(t, err, "the turn freed its lock when it ended")

	require.NoError(t, again.Release())
	_, err = a.RunState(ctx, agent.Turn{Thread: "t", Message: question, Lock: again})
	require.ErrorContains(t, err, "released before the turn started")
	require.False(t, errors.Is(err, agent.ErrThreadBusy))
}
