package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/runs"
	"github.com/sgrgraph/sgrgraph/sgrtest/servers"
)

// echoTurns is a worker's handler that answers each request with itself
// after a while.
type echoTurns struct{ delay time.Duration }

func (e echoTurns) Run(ctx context.Context, t agent.Turn) (contracts.StructuredResult, error) {
	select {
	case <-time.After(e.delay):
	case <-ctx.Done():
		return contracts.StructuredResult{}, ctx.Err()
	}
	return contracts.StructuredResult{SessionID: t.SessionID, Answer: "echo: " + t.Message, Action: contracts.ActionNormal}, nil
}

// startQueueWorker runs a worker on the Redis at url until the test ends.
func startQueueWorker(t *testing.T, url string, h runs.Handler) {
	t.Helper()
	q, err := runs.Open(context.Background(), url, runs.Options{})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- runs.Worker{Queue: q, Handler: h, Concurrency: 4}.Work(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			assert.NoError(t, err)
		case <-time.After(10 * time.Second):
			t.Error("the worker did not stop within 10 s")
		}
		assert.NoError(t, q.Close())
	})
}

func TestBatchQueueRunsTheRowsOnTheWorkers(t *testing.T) {
	url := servers.Redis(t)
	startQueueWorker(t, url, echoTurns{delay: 50 * time.Millisecond})
	in := filepath.Join(t.TempDir(), "t.csv")
	_, _, err := run(t, "batch", "--make-example", in, "--rows", "12")
	require.NoError(t, err)
	out, errOut, err := run(t, "batch", "--queue", url, "--input", in)
	require.NoError(t, err, errOut)
	assert.Contains(t, out, "batch: 12 rows: 12 done, 0 failed, 0 skipped (done before), 0 not run")
}

// With no worker on the queue, each row fails once its queue wait is over,
// its error naming its run, how long it waited and the limit; the command
// fails saying how many rows did.
func TestBatchQueueFailsAStuckRowNamingItsRunAndLimit(t *testing.T) {
	url := servers.Redis(t)
	in := filepath.Join(t.TempDir(), "t.csv")
	_, _, err := run(t, "batch", "--make-example", in, "--rows", "2")
	require.NoError(t, err)
	start := time.Now()
	_, _, err = run(t, "batch", "--queue", url, "--queue-wait", "300ms", "--input", in)
	require.EqualError(t, err, "batch: 2 rows failed (see their error column)")
	assert.Less(t, time.Since(start), 20*time.Second)
	results := readText(t, strings.TrimSuffix(in, ".csv")+".out.results.jsonl")
	for _, want := range []string{"runs: run batch-", "did not finish: queued for", "past its limit 300ms", "waited"} {
		assert.Equal(t, 2, strings.Count(results, want), "%q in %s", want, results)
	}
}

func TestBatchQueueWaitIsCheckedAsTyped(t *testing.T) {
	in := filepath.Join(t.TempDir(), "no-such.csv")
	_, _, err := run(t, "batch", "--input", in, "--queue-wait", "1m")
	assert.EqualError(t, err, "--queue-wait: only with --queue redis://HOST:PORT/DB")
	_, _, err = run(t, "batch", "--input", in, "--queue", "redis://127.0.0.1:1/0", "--queue-wait", "0s")
	assert.EqualError(t, err, "--queue-wait: 0s is not above 0")
}
