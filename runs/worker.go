package runs

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/rs/zerolog"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/contracts"
)

// Handler runs one turn: *agent.Agent is one.
type Handler interface {
	Run(ctx context.Context, t agent.Turn) (contracts.StructuredResult, error)
}

// Assistants build the agents of assistants' versions and record the
// assistant of a thread: *agent.Assistants is one.
type Assistants interface {
	Agent(ctx context.Context, r agent.Ref) (a *agent.Agent, at agent.Ref, release func(), err error)
	Bind(ctx context.Context, thread string, r agent.Ref) error
}

// Interrupt is the review a run's held draft waits for
// (guardian.human_review): a reviewer answers it by resuming ThreadID.
type Interrupt struct {
	// Thread holds the draft: the run's session's thread, or one the
	// agent made for the turn (its owner is then no API key).
	Thread string `json:"-"`
	// ThreadID is Thread as reviewers name it (ReviewThreadID).
	ThreadID    string `json:"thread_id"`
	InterruptID string `json:"interrupt_id"`
	Turn        int    `json:"turn"`
	Reason      string `json:"reason,omitempty"`
}

// interruptRecord is an Interrupt as the run's hash keeps it.
type interruptRecord struct {
	Interrupt
	Thread string `json:"thread"`
}

// ReviewThreadID names a held thread for reviewers, who are not its
// owner, as GET /v1/reviews lists it and POST /v1/threads/{id}/resume
// takes it: OWNER~SESSION for a thread OWNER/SESSION (the owner being the
// asker's key id), ~THREAD for a thread the agent made itself (a worker's
// or an MCP call's turn). '~' is in no session id, so the name reads back
// one way only.
func ReviewThreadID(thread string) string {
	owner, session, ok := strings.Cut(thread, "/")
	if !ok {
		return "~" + thread
	}
	return owner + "~" + session
}

// DefaultTurnTimeout is a Worker's turn timeout unless it says another.
const DefaultTurnTimeout = 5 * time.Minute

// Worker runs the queue's runs, Concurrency at a time.
type Worker struct {
	Queue   *Queue
	Handler Handler
	// Assistants, when set, run the runs that name an assistant
	// (Spec.Assistant); without it such a run fails.
	Assistants Assistants
	// Name tells the worker from the others of the group (default: host,
	// process id and a random part). Two live workers must not share one.
	Name string
	// Concurrency is how many runs it runs at once (default 4).
	Concurrency int
	// TurnTimeout bounds one turn (default DefaultTurnTimeout); a turn that
	// takes longer fails. The worker records it in each run it starts, for
	// the run's clients to know how long to wait.
	TurnTimeout time.Duration
	// Grace is how long the runs in hand may go on once Work's context is
	// done (default 30 s); a run cut then is left to another worker.
	Grace time.Duration
	// Webhooks tune the delivery of finished runs' webhooks, which every
	// worker of the queue takes part in (webhook_delivery.go).
	Webhooks Webhooks
	Log      zerolog.Logger
}

func (w Worker) withDefaults() Worker {
	if w.Name == "" {
		host, _ := os.Hostname()
		var b [3]byte
		_, _ = rand.Read(b[:])
		w.Name = fmt.Sprintf("%s-%d-%s", cmp.Or(host, "worker"), os.Getpid(), hex.EncodeToString(b[:]))
	}
	w.Concurrency = cmp.Or(w.Concurrency, 4)
	w.TurnTimeout = cmp.Or(w.TurnTimeout, DefaultTurnTimeout)
	w.Grace = cmp.Or(w.Grace, 30*time.Second)
	return w
}

// Work takes runs until ctx is done, then lets the runs in hand finish
// (within Grace) and returns. It returns an error only for a Worker it
// cannot start; Redis failures on the way are logged and retried.
func (w Worker) Work(ctx context.Context) error {
	if w.Queue == nil || w.Handler == nil {
		return errors.New("runs: worker: Queue and Handler are required")
	}
	if w.Concurrency < 0 {
		return fmt.Errorf("runs: worker: concurrency %d is below 1", w.Concurrency)
	}
	if w.TurnTimeout < 0 {
		return fmt.Errorf("runs: worker: turn timeout %s is below 0", w.TurnTimeout)
	}
	w = w.withDefaults()
	w.Log = w.Log.With().Str("worker", w.Name).Logger()
	// The runs in hand outlive ctx by Grace: a worker told to stop finishes
	// what it took rather than leaving it to wait out a claim elsewhere.
	inHand, cancelInHand := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelInHand()
	stop := context.AfterFunc(ctx, func() { time.AfterFunc(w.Grace, cancelInHand) })
	defer stop()

	slots := make(chan struct{}, w.Concurrency)
	var wg sync.WaitGroup
	wg.Go(func() { w.deliverWebhooks(ctx) })
	wg.Go(func() { w.fireCrons(ctx, w.Log) })
	cursor, failures := "0-0", 0
	w.Log.Info().Int("concurrency", w.Concurrency).Msg("worker started")
	for {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		msg, err := w.next(ctx, &cursor)
		if err != nil {
			<-slots
			if ctx.Err() == nil {
				failures++
				w.Log.Warn().Err(err).Int("failures", failures).Msg("reading the queue failed; retrying")
				sleep(ctx, backoff(failures))
			}
			continue
		}
		failures = 0
		if msg == nil {
			<-slots
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			w.handle(inHand, *msg)
		}()
	}
	w.Log.Info().Msg("worker stopping: finishing the runs in hand")
	wg.Wait()
	return nil
}

// next is a delivery whose worker stopped renewing it, or else a new one;
// nil when none came within a short wait.
func (w Worker) next(ctx context.Context, cursor *string) (*redis.XMessage, error) {
	q := w.Queue
	cctx, cancel := q.call(ctx)
	msgs, start, err := q.client.XAutoClaim(cctx, &redis.XAutoClaimArgs{Stream: q.stream(), Group: group,
		Consumer: w.Name, MinIdle: q.opts.Claim, Start: *cursor, Count: 1}).Result()
	cancel()
	if err != nil {
		return nil, fmt.Errorf("claim: %w", err)
	}
	*cursor = start
	if len(msgs) > 0 {
		w.Log.Info().Str("delivery", msgs[0].ID).Msg("took over a run whose worker went quiet")
		return &msgs[0], nil
	}
	block := min(2*time.Second, q.opts.Claim/2)
	rctx, cancel := context.WithTimeout(ctx, q.opts.Timeout+block)
	defer cancel()
	streams, err := q.client.XReadGroup(rctx, &redis.XReadGroupArgs{Group: group, Consumer: w.Name,
		Streams: []string{q.stream(), ">"}, Count: 1, Block: block}).Result()
	switch {
	case errors.Is(err, redis.Nil), ctx.Err() != nil:
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("read: %w", err)
	}
	for _, st := range streams {
		if len(st.Messages) > 0 {
			return &st.Messages[0], nil
		}
	}
	return nil, nil
}

func backoff(failures int) time.Duration {
	return min(100*time.Millisecond<<min(failures, 6), 5*time.Second)
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}
