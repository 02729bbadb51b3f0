package runs_test

import (
	"context"
	"io"
	"net"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/batch"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/runs"
	"github.com/sgrgraph/sgrgraph/sgrtest/servers"
)

// The tests below shrink a run's limits through Options and the worker's
// TurnTimeout, so that what takes minutes in production takes a second.
const (
	testClaim   = 300 * time.Millisecond // the lowest Open takes
	testTimeout = 300 * time.Millisecond
)

// runBatch runs an example table of n rows through remote, n rows at a
// time, as batch --queue does, and returns its summary. It may run on a
// goroutine of its own.
func runBatch(t *testing.T, remote runs.Remote, n int) batch.Summary {
	t.Helper()
	in := filepath.Join(t.TempDir(), "tickets.csv")
	if !assert.NoError(t, batch.WriteExample(in, n)) {
		return batch.Summary{}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	sum, err := batch.Run(ctx, remote, batch.Options{Input: in, Concurrency: n})
	assert.NoError(t, err)
	assert.NoError(t, ctx.Err(), "the batch did not finish within 60 s")
	return sum
}

// ranOnce checks that every row's turn ran to its end exactly once over
// the handlers given.
func ranOnce(t *testing.T, rows int, hs ...*echo) {
	t.Helper()
	ends := map[string]int{}
	for _, h := range hs {
		h.mu.Lock()
		for msg, n := range h.seen {
			ends[msg] += n
		}
		h.mu.Unlock()
	}
	assert.Len(t, ends, rows)
	for msg, n := range ends {
		assert.Equal(t, 1, n, "row %q ran %d times", msg, n)
	}
}

// Turns that take longer than the client's calls may (a second against
// 300 ms), with more rows waiting than the client has connections (eight
// against two) and the last rows queued longer than the queue wait (the
// queue moves meanwhile): every row ends done, each run once.
func TestSlowRowsAllEndDone(t *testing.T) {
	redisURL := servers.Redis(t)
	client := openQueue(t, redisURL+"?pool_size=2", runs.Options{Timeout: testTimeout, Claim: testClaim, QueueWait: time.Second})
	q := openQueue(t, redisURL, runs.Options{Claim: testClaim})
	h := &echo{delay: 800 * time.Millisecond}
	work(t, runs.Worker{Queue: q, Handler: h, Concurrency: 2, TurnTimeout: 3 * time.Second})

	sum := runBatch(t, runs.Remote{Queue: client, Owner: "batch", Namespace: "slow"}, 8)
	assert.Equal(t, 8, sum.Done)
	assert.Zero(t, sum.Failed)
	ranOnce(t, 8, h)
}

// The client's connections drop in the middle of the runs and stay down
// for two seconds, during which the worker finishes: the client reconnects,
// reads on from the last event it saw, and the rows read as done.
func TestRowsReadAsDoneThroughACutConnection(t *testing.T) {
	redisURL := servers.Redis(t)
	p := newCutProxy(t, redisURL)
	client := openQueue(t, p.url(redisURL), runs.Options{Timeout: testTimeout, Claim: testClaim, QueueWait: time.Second})
	q := openQueue(t, redisURL, runs.Options{Claim: testClaim})
	h := &echo{delay: time.Second}
	work(t, runs.Worker{Queue: q, Handler: h, Concurrency: 4, TurnTimeout: 3 * time.Second})
	go func() {
		for h.calls.Load() < 4 {
			time.Sleep(5 * time.Millisecond)
		}
		p.cut(2 * time.Second)
	}()

	sum := runBatch(t, runs.Remote{Queue: client, Owner: "batch", Namespace: "cut"}, 4)
	assert.Equal(t, 4, sum.Done)
	assert.Zero(t, sum.Failed)
	assert.Positive(t, p.dropped.Load(), "the proxy dropped no connection")
	ranOnce(t, 4, h)
}

// Worker A is killed in the middle of its third row. Worker B, started
// half a second later, takes that row over once its claim lapses; the row
// ends done on its second attempt, and no row runs twice. The client is
// as short of connections as in TestSlowRowsAllEndDone.
func TestAKilledWorkersRowIsTakenOverOnceAndDone(t *testing.T) {
	redisURL := servers.Redis(t)
	client := openQueue(t, redisURL+"?pool_size=2", runs.Options{Timeout: testTimeout, Claim: testClaim, QueueWait: time.Second})
	q := openQueue(t, redisURL, runs.Options{Claim: testClaim})
	a := &dying{echo: echo{delay: 200 * time.Millisecond}, at: 3, died: make(chan agent.Turn, 1)}
	ctxA, kill := context.WithCancel(context.Background())
	stoppedA := make(chan struct{})
	go func() {
		defer close(stoppedA)
		// A grace of a millisecond cuts the turn in hand, recording nothing:
		// in Redis, as a SIGKILL leaves it.
		_ = runs.Worker{Queue: q, Handler: a, Name: "A", Concurrency: 1, TurnTimeout: 2 * time.Second, Grace: time.Millisecond}.Work(ctxA)
	}()
	remote := runs.Remote{Queue: client, Owner: "batch", Namespace: "kill"}
	sums := make(chan batch.Summary, 1)
	go func() { sums <- runBatch(t, remote, 8) }()

	var victim agent.Turn
	select {
	case victim = <-a.died:
	case <-time.After(30 * time.Second):
		kill()
		t.Fatal("worker A did not reach its third row within 30 s")
	}
	kill()
	<-stoppedA
	time.Sleep(500 * time.Millisecond)
	b := &echo{delay: 200 * time.Millisecond}
	work(t, runs.Worker{Queue: q, Handler: b, Name: "B", Concurrency: 2, TurnTimeout: 2 * time.Second})
	sum := <-sums
	assert.Equal(t, 8, sum.Done)
	assert.Zero(t, sum.Failed)
	<-stoppedA
	ranOnce(t, 8, &a.echo, b)
	assert.Equal(t, 1, b.times(victim.Message), "the row A died in was not B's")
	id, err := remote.ID(victim)
	require.NoError(t, err)
	r, err := q.Get(context.Background(), "batch", id)
	require.NoError(t, err)
	assert.Equal(t, runs.Done, r.Status)
	assert.Equal(t, 2, r.Attempts, "the row A died in was not taken over once")
}

// A run no worker takes, and a run whose worker hangs in a turn past its
// timeout with no slot to spare, fail once their limits are over, naming
// the run, the wait and the limit.
func TestAStuckRunFailsNamingItsWaitAndLimit(t *testing.T) {
	redisURL := servers.Redis(t)
	ctx := context.Background()
	turn := agent.Turn{SessionID: "s", Message: "hello"}

	idle := openQueue(t, redisURL, runs.Options{Prefix: "idle:", Timeout: testTimeout, Claim: testClaim, QueueWait: 500 * time.Millisecond})
	remote := runs.Remote{Queue: idle, Owner: "k", Namespace: "stuck"}
	id, err := remote.ID(turn)
	require.NoError(t, err)
	start := time.Now()
	_, err = remote.Run(ctx, turn)
	require.Error(t, err)
	t.Log(err)
	assert.GreaterOrEqual(t, time.Since(start), 500*time.Millisecond)
	for _, want := range []string{id, "queued", "waited", "limit 500ms"} {
		assert.Contains(t, err.Error(), want)
	}

	hung := openQueue(t, redisURL, runs.Options{Prefix: "hung:", Timeout: testTimeout, Claim: testClaim, QueueWait: 500 * time.Millisecond})
	release := make(chan struct{})
	h := &deaf{started: make(chan struct{}, 1), release: release}
	work(t, runs.Worker{Queue: hung, Handler: h, Concurrency: 1, TurnTimeout: 300 * time.Millisecond})
	t.Cleanup(func() { close(release) }) // before the worker stops
	remote = runs.Remote{Queue: hung, Owner: "k", Namespace: "stuck"}
	_, err = remote.Run(ctx, turn)
	require.Error(t, err)
	t.Log(err)
	// The turn timeout, the claim, the time to record the end, then the
	// queue wait: 300ms + 300ms + 300ms + 500ms.
	for _, want := range []string{id, "attempt 1", "waited", "limit 1.4s"} {
		assert.Contains(t, err.Error(), want)
	}
	r, err := hung.Get(ctx, "k", id)
	require.NoError(t, err)
	assert.Equal(t, runs.Limits{QueueWait: 500 * time.Millisecond, TurnTimeout: 300 * time.Millisecond, Claim: testClaim}, r.Limits)
}

// dying is a test double of a worker's handler that hangs in its turn
// number at, as a worker does that is about to be killed; the other turns
// run as echo's.
type dying struct {
	echo
	at   int32
	n    atomic.Int32
	died chan agent.Turn
}

func (d *dying) Run(ctx context.Context, t agent.Turn) (contracts.StructuredResult, error) {
	if d.n.Add(1) == d.at {
		d.died <- t
		<-ctx.Done()
		return contracts.StructuredResult{}, ctx.Err()
	}
	return d.echo.Run(ctx, t)
}

// deaf is a test double whose turns ignore their context and end only when
// release is closed.
type deaf struct {
	started chan struct{}
	release chan struct{}
}

func (d *deaf) Run(_ context.Context, t agent.Turn) (contracts.StructuredResult, error) {
	select {
	case d.started <- struct{}{}:
	default:
	}
	<-d.release
	return contracts.StructuredResult{Answer: t.Message}, nil
}

// cutProxy forwards loopback connections to a Redis. cut drops every
// connection and, for a while, every new one, as a network outage does.
type cutProxy struct {
	ln      net.Listener
	target  string
	mu      sync.Mutex
	conns   map[net.Conn]struct{}
	down    time.Time // new connections are dropped until then
	dropped atomic.Int32
}

func newCutProxy(t *testing.T, redisURL string) *cutProxy {
	t.Helper()
	u, err := url.Parse(redisURL)
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	p := &cutProxy{ln: ln, target: u.Host, conns: map[net.Conn]struct{}{}}
	go p.serve()
	t.Cleanup(func() {
		_ = ln.Close()
		p.cut(0)
	})
	return p
}

// url is redisURL with the proxy's address.
func (p *cutProxy) url(redisURL string) string {
	u, _ := url.Parse(redisURL)
	return strings.Replace(redisURL, u.Host, p.ln.Addr().String(), 1)
}

func (p *cutProxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		if time.Now().Before(p.down) {
			p.mu.Unlock()
			p.dropped.Add(1)
			_ = c.Close()
			continue
		}
		p.mu.Unlock()
		up, err := net.DialTimeout("tcp", p.target, time.Second)
		if err != nil {
			_ = c.Close()
			continue
		}
		p.mu.Lock()
		p.conns[c], p.conns[up] = struct{}{}, struct{}{}
		p.mu.Unlock()
		go p.pipe(c, up)
		go p.pipe(up, c)
	}
}

func (p *cutProxy) pipe(from, to net.Conn) {
	_, _ = io.Copy(to, from)
	_ = from.Close()
	_ = to.Close()
}

// cut drops the connections open now and refuses new ones for d.
func (p *cutProxy) cut(d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = time.Now().Add(d)
	for c := range p.conns {
		_ = c.Close()
		p.dropped.Add(1)
	}
	clear(p.conns)
}
