package runs_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/runs"
	"github.com/sgrgraph/sgrgraph/sgrtest/servers"
)

// echo is a test double of a turn handler: it emits one token event and
// answers with the message, after delay; it fails messages starting "fail"
// the first failFirst times it sees them.
type echo struct {
	delay     time.Duration
	failFirst int32
	calls     atomic.Int32
	failed    atomic.Int32
	mu        sync.Mutex
	seen      map[string]int
}

func (e *echo) Run(ctx context.Context, t agent.Turn) (contracts.StructuredResult, error) {
	e.calls.Add(1)
	e.mu.Lock()
	if e.seen == nil {
		e.seen = map[string]int{}
	}
	e.seen[t.Message]++
	e.mu.Unlock()
	if t.Events != nil {
		t.Events(contracts.Event{Kind: contracts.EventToken, Node: "agent_model", Text: "echo"})
	}
	select {
	case <-time.After(e.delay):
	case <-ctx.Done():
		return contracts.StructuredResult{}, ctx.Err()
	}
	if len(t.Message) >= 4 && t.Message[:4] == "fail" && e.failed.Add(1) <= e.failFirst {
		return contracts.StructuredResult{}, errors.New("the model is down")
	}
	return contracts.StructuredResult{SessionID: t.SessionID, Answer: "echo: " + t.Message, Action: contracts.ActionNormal}, nil
}

func (e *echo) times(msg string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.seen[msg]
}

func openQueue(t *testing.T, url string, o runs.Options) *runs.Queue {
	t.Helper()
	q, err := runs.Open(context.Background(), url, o)
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, q.Close()) })
	return q
}

// work runs a worker until the test ends, and checks that it stops.
func work(t *testing.T, w runs.Worker) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Work(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			assert.NoError(t, err)
		case <-time.After(10 * time.Second):
			t.Error("the worker did not stop within 10 s")
		}
	})
}

func wait(t *testing.T, q *runs.Queue, owner, id string) runs.Run {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r, err := q.Wait(ctx, owner, id)
	require.NoError(t, err)
	return r
}

func TestSubmitIsIdempotentAndOwned(t *testing.T) {
	q := openQueue(t, servers.Redis(t), runs.Options{})
	ctx := context.Background()
	r, err := q.Submit(ctx, "alice", "r1", runs.Spec{Message: "hello", SessionID: "s"})
	require.NoError(t, err)
	assert.Equal(t, runs.Queued, r.Status)

	again, err := q.Submit(ctx, "alice", "r1", runs.Spec{Message: "hello", SessionID: "s"})
	require.NoError(t, err)
	assert.Equal(t, "hello", again.Spec.Message)
	assert.Equal(t, 0, again.Attempts)

	_, err = q.Submit(ctx, "bob", "r1", runs.Spec{Message: "mine"})
	assert.ErrorIs(t, err, runs.ErrTaken)
	_, err = q.Get(ctx, "bob", "r1")
	assert.ErrorIs(t, err, runs.ErrNotFound)
	_, err = q.Events(ctx, "bob", "r1", "", 0)
	assert.ErrorIs(t, err, runs.ErrNotFound)

	for _, bad := range []string{"", "has space", string(make([]byte, runs.MaxIDBytes+1))} {
		_, err := q.Submit(ctx, "alice", bad, runs.Spec{Message: "x"})
		assert.ErrorContains(t, err, "id:", "id %q", bad)
	}
	_, err = q.Events(ctx, "alice", "r1", "", time.Hour)
	assert.ErrorContains(t, err, "wait 1h0m0s is outside")

	// One worker runs it once, though it was submitted twice.
	h := &echo{}
	work(t, runs.Worker{Queue: q, Handler: h, Concurrency: 2})
	done := wait(t, q, "alice", "r1")
	assert.Equal(t, runs.Done, done.Status)
	assert.Equal(t, "echo: hello", done.Result.Answer)
	assert.Equal(t, 1, done.Attempts)
	assert.NotNil(t, done.Started)
	assert.NotNil(t, done.Finished)
	time.Sleep(300 * time.Millisecond)
	assert.Equal(t, int32(1), h.calls.Load())
}

func TestEventsStreamInOrderEndingWithTheResult(t *testing.T) {
	q := openQueue(t, servers.Redis(t), runs.Options{})
	work(t, runs.Worker{Queue: q, Handler: &echo{delay: 50 * time.Millisecond}})
	ctx := context.Background()
	_, err := q.Submit(ctx, "k", "r", runs.Spec{Message: "hi"})
	require.NoError(t, err)

	var kinds []string
	after := ""
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); {
		evs, err := q.Events(ctx, "k", "r", after, 2*time.Second)
		require.NoError(t, err)
		for _, ev := range evs {
			kinds = append(kinds, ev.Kind)
			after = ev.ID
		}
		if len(evs) > 0 && evs[len(evs)-1].Last() {
			break
		}
	}
	assert.Equal(t, []string{"started", "token", "result"}, kinds)
	// Read again from the start: the same events.
	evs, err := q.Events(ctx, "k", "r", "", 0)
	require.NoError(t, err)
	require.Len(t, evs, 3)
	assert.JSONEq(t, `{"attempt":1}`, string(evs[0].Data))
	assert.Contains(t, string(evs[2].Data), `"answer":"echo: hi"`)
}

func TestAFailedRunRunsAgainWhenSubmittedAgain(t *testing.T) {
	q := openQueue(t, servers.Redis(t), runs.Options{})
	h := &echo{failFirst: 1}
	work(t, runs.Worker{Queue: q, Handler: h})
	remote := runs.Remote{Queue: q, Owner: "batch", Namespace: "t"}
	turn := agent.Turn{SessionID: "s", Message: "fail once"}
	_, err := remote.Run(context.Background(), turn)
	require.ErrorContains(t, err, "the model is down")
	id, err := remote.ID(turn)
	require.NoError(t, err)
	evs, err := q.Events(context.Background(), "batch", id, "", 0)
	require.NoError(t, err)
	require.NotEmpty(t, evs)
	assert.Equal(t, "error", evs[len(evs)-1].Kind)

	res, err := remote.Run(context.Background(), turn)
	require.NoError(t, err)
	assert.Equal(t, "echo: fail once", res.Answer)
	assert.Equal(t, 2, h.times("fail once"))
	// A finished turn submitted again is not run again.
	res, err = remote.Run(context.Background(), turn)
	require.NoError(t, err)
	assert.Equal(t, "echo: fail once", res.Answer)
	assert.Equal(t, 2, h.times("fail once"))
}

// A run delivered to a worker that never finishes it (here: read by hand
// and dropped, as a killed worker drops it) goes to another worker once its
// claim lapses; after MaxAttempts such deliveries it fails with the reason.
func TestAnAbandonedRunIsTakenOverThenGivenUp(t *testing.T) {
	url := servers.Redis(t)
	q := openQueue(t, url, runs.Options{Claim: 300 * time.Millisecond, MaxAttempts: 2})
	ctx := context.Background()
	_, err := q.Submit(ctx, "k", "lost", runs.Spec{Message: "hello"})
	require.NoError(t, err)
	dead := &blocked{started: make(chan string, 8)}
	stopDead := startWorker(q, "dead", dead)
	<-dead.started
	stopDead() // the worker stops; its run was cut and is left to another

	h := &echo{}
	work(t, runs.Worker{Queue: q, Handler: h, Name: "alive"})
	r := wait(t, q, "k", "lost")
	assert.Equal(t, runs.Done, r.Status)
	assert.Equal(t, 2, r.Attempts)
	assert.Equal(t, 1, h.times("hello"))

	// Two workers in a row die with it: it fails, saying why.
	q2 := openQueue(t, url, runs.Options{Prefix: "other:", Claim: 300 * time.Millisecond, MaxAttempts: 2})
	_, err = q2.Submit(ctx, "k", "doomed", runs.Spec{Message: "hello"})
	require.NoError(t, err)
	for _, name := range []string{"dead1", "dead2"} {
		d := &blocked{started: make(chan string, 8)}
		stop := startWorker(q2, name, d)
		<-d.started
		stop()
	}
	work(t, runs.Worker{Queue: q2, Handler: &echo{}, Name: "late"})
	r = wait(t, q2, "k", "doomed")
	assert.Equal(t, runs.Failed, r.Status)
	assert.Contains(t, r.Error, "no worker finished the run in 2 attempts")
}

// blocked is a test double whose turns never end before their context.
type blocked struct{ started chan string }

func (b *blocked) Run(ctx context.Context, t agent.Turn) (contracts.StructuredResult, error) {
	b.started <- t.Message
	<-ctx.Done()
	return contracts.StructuredResult{}, ctx.Err()
}

// startWorker runs a worker with a tiny grace; stop stops it and cuts its
// turns, as a crash would (the runs stay pending in the group).
func startWorker(q *runs.Queue, name string, h runs.Handler) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = runs.Worker{Queue: q, Handler: h, Name: name, Grace: time.Millisecond}.Work(ctx)
	}()
	return func() { cancel(); <-done }
}

// A worker that renews its claim keeps a turn much longer than Claim; no
// other worker runs it.
func TestALiveWorkerKeepsItsRun(t *testing.T) {
	q := openQueue(t, servers.Redis(t), runs.Options{Claim: 300 * time.Millisecond})
	slow := &echo{delay: 1500 * time.Millisecond}
	work(t, runs.Worker{Queue: q, Handler: slow, Name: "slow"})
	_, err := q.Submit(context.Background(), "k", "long", runs.Spec{Message: "long"})
	require.NoError(t, err)
	time.Sleep(200 * time.Millisecond) // the slow worker has it
	other := &echo{}
	work(t, runs.Worker{Queue: q, Handler: other, Name: "other"})
	r := wait(t, q, "k", "long")
	assert.Equal(t, runs.Done, r.Status)
	assert.Equal(t, 1, r.Attempts)
	assert.Equal(t, 1, slow.times("long"))
	assert.Equal(t, 0, other.times("long"))
}

// A worker told to stop finishes the turns in hand before it returns.
func TestAStoppedWorkerFinishesItsTurns(t *testing.T) {
	q := openQueue(t, servers.Redis(t), runs.Options{})
	h := &echo{delay: 500 * time.Millisecond}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- runs.Worker{Queue: q, Handler: h, Concurrency: 3}.Work(ctx) }()
	for i := range 3 {
		_, err := q.Submit(context.Background(), "k", fmt.Sprintf("r%d", i), runs.Spec{Message: fmt.Sprint(i)})
		require.NoError(t, err)
	}
	require.Eventually(t, func() bool { return h.calls.Load() == 3 }, 10*time.Second, 10*time.Millisecond)
	cancel()
	require.NoError(t, <-done)
	for i := range 3 {
		r, err := q.Get(context.Background(), "k", fmt.Sprintf("r%d", i))
		require.NoError(t, err)
		assert.Equal(t, runs.Done, r.Status, "run r%d", i)
	}
}

func TestOpenNamesTheProblem(t *testing.T) {
	_, err := runs.Open(context.Background(), "redis://127.0.0.1:1/0", runs.Options{Timeout: 500 * time.Millisecond})
	assert.ErrorContains(t, err, "runs: open 127.0.0.1:1")
	_, err = runs.Open(context.Background(), "http://x", runs.Options{})
	assert.ErrorContains(t, err, "runs: open")
	_, err = runs.Open(context.Background(), "redis://127.0.0.1:1/0", runs.Options{Claim: time.Millisecond})
	assert.ErrorContains(t, err, "claim: 1ms is below the lowest, 300ms")
}
