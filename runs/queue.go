package runs

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Options tune a Queue; zero values take the defaults named.
type Options struct {
	// Prefix starts every key (default "sgrgraph:runs:"): queues with other
	// prefixes on one Redis do not see each other's runs.
	Prefix string
	// Claim is how long a run may go without its worker renewing its claim
	// before another worker takes it (default 30 s). A worker renews every
	// Claim/3, so a live worker keeps its run however long the turn takes.
	Claim time.Duration
	// Keep is how long a finished run, its result and its events stay
	// readable (default 24 h).
	Keep time.Duration
	// MaxAttempts is how many deliveries a run gets; a run whose workers
	// died that many times fails with the reason (default 3).
	MaxAttempts int
	// Timeout bounds each call to Redis (default 5 s); go-redis retries a
	// failed call up to 3 times within it. Wait blocks on a run's events
	// for up to Timeout at a time.
	Timeout time.Duration
	// QueueWait is how long a run may wait for a worker, queued or with
	// its worker gone quiet, while no worker takes or finishes any run of
	// the queue (default 10 minutes). Submit records it in the run; Wait
	// gives up on a run only past it (see Wait).
	QueueWait time.Duration
}

func (o Options) withDefaults() Options {
	o.Prefix = cmp.Or(o.Prefix, "sgrgraph:runs:")
	o.Claim = cmp.Or(o.Claim, 30*time.Second)
	o.Keep = cmp.Or(o.Keep, 24*time.Hour)
	o.MaxAttempts = cmp.Or(o.MaxAttempts, 3)
	o.Timeout = cmp.Or(o.Timeout, 5*time.Second)
	o.QueueWait = cmp.Or(o.QueueWait, 10*time.Minute)
	return o
}

// group is the consumer group of the workers.
const group = "workers"

// minConns is the fewest connections a Queue keeps to Redis unless its URL
// says pool_size: each run a client waits on holds one in a blocking read
// (batch --queue waits on up to 64 at once), and the calls of Submit and
// Get need more beside them.
const minConns = 128

// Queue is the runs of one Redis. It is safe for concurrent use.
type Queue struct {
	client    *redis.Client
	opts      Options
	scripts   scripts
	closeOnce sync.Once
	closeErr  error
	// reads bounds the blocking reads of Wait to 3/4 of the connections,
	// so that waiting on many runs never starves the other calls: a
	// waiter short of one waits its turn rather than failing.
	reads chan struct{}
}

// ErrNotFound is returned for a run that does not exist, belongs to
// another owner, or was finished longer than Options.Keep ago.
var ErrNotFound = errors.New("runs: no such run")

// Open connects to the Redis at url (redis://[user:password@]host:port/db,
// or rediss:// for TLS), checks that it answers and that it has streams
// with XAUTOCLAIM (Redis 6.2 or later), and creates the workers' group.
func Open(ctx context.Context, url string, o Options) (*Queue, error) {
	o = o.withDefaults()
	if o.Claim < 300*time.Millisecond {
		return nil, fmt.Errorf("runs: claim: %s is below the lowest, 300ms", o.Claim)
	}
	if o.Timeout < 0 || o.QueueWait < 0 {
		return nil, fmt.Errorf("runs: timeout %s, queue wait %s: neither may be below 0", o.Timeout, o.QueueWait)
	}
	opt, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("runs: open: %w", err)
	}
	opt.ContextTimeoutEnabled = true // without it go-redis ignores ctx deadlines on the socket
	if opt.PoolSize == 0 {
		opt.PoolSize = max(10*runtime.GOMAXPROCS(0), minConns)
	}
	q := &Queue{client: redis.NewClient(opt), opts: o, scripts: newScripts(),
		reads: make(chan struct{}, max(1, opt.PoolSize*3/4))}
	ctx, cancel := q.call(ctx)
	defer cancel()
	err = q.client.XGroupCreateMkStream(ctx, q.stream(), group, "0").Err()
	if err != nil && err.Error() != "BUSYGROUP Consumer Group name already exists" {
		_ = q.client.Close()
		return nil, fmt.Errorf("runs: open %s: %w", opt.Addr, err)
	}
	err = q.client.XGroupCreateMkStream(ctx, q.webhookStream(), webhookGroup, "0").Err()
	if err != nil && err.Error() != "BUSYGROUP Consumer Group name already exists" {
		_ = q.client.Close()
		return nil, fmt.Errorf("runs: open %s: %w", opt.Addr, err)
	}
	if err := q.client.XAutoClaim(ctx, &redis.XAutoClaimArgs{Stream: q.stream(), Group: group, Consumer: "probe", MinIdle: time.Hour, Start: "0", Count: 1}).Err(); err != nil {
		_ = q.client.Close()
		return nil, fmt.Errorf("runs: open %s: the server lacks XAUTOCLAIM (Redis 6.2 or later is needed): %w", opt.Addr, err)
	}
	return q, nil
}

// Close closes the connections; closing again is no error.
func (q *Queue) Close() error {
	q.closeOnce.Do(func() {
		if err := q.client.Close(); err != nil {
			q.closeErr = fmt.Errorf("runs: close: %w", err)
		}
	})
	return q.closeErr
}

// call bounds one call to Redis.
func (q *Queue) call(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, q.opts.Timeout)
}

func (q *Queue) stream() string            { return q.opts.Prefix + "queue" }
func (q *Queue) runKey(id string) string   { return q.opts.Prefix + "run:" + id }
func (q *Queue) eventKey(id string) string { return q.opts.Prefix + "events:" + id }
