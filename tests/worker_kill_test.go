package tests

import (
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
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

// The environment of the worker processes TestKilledWorkerBatch starts.
const (
	workerQueue = "SGRGRAPH_WORKER_QUEUE" // the Redis URL
	workerName  = "SGRGRAPH_WORKER_NAME"
	workerLog   = "SGRGRAPH_WORKER_LOG" // the file each row's start and end is appended to
)

// killClaim is how long the test's queue lets a run go unrenewed.
const killClaim = time.Second

// logged is a test double around the offline agent: it appends
// "NAME start ID" and "NAME done ID" to a shared file around each turn, and
// makes each turn last at least 150 ms, so that a kill lands mid-row.
type logged struct {
	a          *agent.Agent
	name, file string
	mu         sync.Mutex
}

func (l *logged) Run(ctx context.Context, t agent.Turn) (contracts.StructuredResult, error) {
	l.line("start", t.SessionID)
	time.Sleep(150 * time.Millisecond)
	res, err := l.a.Run(ctx, t)
	if ctx.Err() == nil {
		l.line("done", t.SessionID)
	}
	return res, err
}

func (l *logged) line(what, session string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	f, err := os.OpenFile(l.file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	if _, err := fmt.Fprintf(f, "%s %s %s\n", l.name, what, session); err != nil {
		panic(err)
	}
}

// TestWorkerChild is a worker process of TestKilledWorkerBatch; run alone,
// it does nothing.
func TestWorkerChild(t *testing.T) {
	url := os.Getenv(workerQueue)
	if url == "" {
		return
	}
	q, err := runs.Open(context.Background(), url, runs.Options{Claim: killClaim})
	require.NoError(t, err)
	name := os.Getenv(workerName)
	h := &logged{a: newAgent(t, agent.Options{}), name: name, file: os.Getenv(workerLog)}
	// One turn at a time: when the log shows a row started, every earlier
	// row of this worker has its result recorded.
	require.NoError(t, runs.Worker{Queue: q, Handler: h, Name: name, Concurrency: 1}.Work(context.Background()))
}

func startWorkerProcess(t *testing.T, url, name, log string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestWorkerChild$", "-test.count=1")
	// The child's temporary folders go under the parent's: a killed child
	// cannot remove its own, and the parent's cleanup removes them all.
	cmd.Env = append(os.Environ(), workerQueue+"="+url, workerName+"="+name, workerLog+"="+log, "TMPDIR="+t.TempDir())
	cmd.Stderr = os.Stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return cmd
}

// lines reads the workers' log as "NAME start|done ID" lines.
func lines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	require.NoError(t, err)
	return strings.Fields(strings.ReplaceAll(string(data), " ", "_"))
}

// TestKilledWorkerBatch spreads a table over workers through a real Redis:
// worker A is killed (SIGKILL) in the middle of a row; worker B, started
// after, takes that row over once its claim lapses. The output is complete
// and in input order, and no row finished by A runs again.
func TestKilledWorkerBatch(t *testing.T) {
	url := servers.Redis(t)
	dir := t.TempDir()
	log := filepath.Join(dir, "workers.log")
	in := filepath.Join(dir, "tickets.csv")
	const rows = 24
	require.NoError(t, batch.WriteExample(in, rows))

	q, err := runs.Open(context.Background(), url, runs.Options{Claim: killClaim})
	require.NoError(t, err)
	defer q.Close()
	a := startWorkerProcess(t, url, "A", log)
	type result struct {
		sum batch.Summary
		err error
	}
	finished := make(chan result, 1)
	go func() {
		sum, err := batch.Run(context.Background(), runs.Remote{Queue: q, Owner: "batch", Namespace: "kill-test"},
			batch.Options{Input: in, Concurrency: 8})
		finished <- result{sum, err}
	}()

	// Kill A once it has finished two rows and started a third.
	var victim string
	require.Eventually(t, func() bool {
		var done int
		var last string
		for _, l := range lines(t, log) {
			switch {
			case strings.HasPrefix(l, "A_done_"):
				done++
			case strings.HasPrefix(l, "A_start_"):
				last = strings.TrimPrefix(l, "A_start_")
			}
		}
		if done >= 2 && last != "" && !contains(lines(t, log), "A_done_"+last) {
			victim = last
			return true
		}
		return false
	}, 60*time.Second, 5*time.Millisecond, "worker A did not get through two rows")
	require.NoError(t, a.Process.Signal(syscall.SIGKILL))
	_ = a.Wait()
	killedAt := lines(t, log)
	startWorkerProcess(t, url, "B", log)

	var r result
	select {
	case r = <-finished:
	case <-time.After(90 * time.Second):
		t.Fatal("the batch did not finish within 90 s")
	}
	require.NoError(t, r.err)
	assert.Equal(t, rows, r.sum.Done+r.sum.Failed, "every row ran")
	assert.Zero(t, r.sum.NotRun)

	// Each row ended once, by A before the kill or by B after; the row A
	// died in was B's.
	ends := map[string][]string{}
	for _, l := range lines(t, log) {
		parts := strings.SplitN(l, "_", 3)
		if parts[1] == "done" {
			ends[parts[2]] = append(ends[parts[2]], parts[0])
		}
	}
	assert.Len(t, ends, rows)
	for id, by := range ends {
		assert.Len(t, by, 1, "row %s ended %d times (%v)", id, len(by), by)
	}
	assert.Equal(t, []string{"B"}, ends[victim], "the row A was killed in")
	for _, l := range killedAt {
		if id, ok := strings.CutPrefix(l, "A_done_"); ok {
			assert.NotContains(t, lines(t, log), "B_start_"+id, "row %s, finished by A, ran again on B", id)
		}
	}

	// The output table has every input row, in input order, each answered
	// once in the results file.
	inIDs := column(t, in, batch.DefaultColumns().ID)
	outIDs := column(t, r.sum.Output, batch.DefaultColumns().ID)
	assert.Equal(t, inIDs, outIDs)
	recs := records(t, r.sum.Results)
	seen := map[string]int{}
	for _, rec := range recs {
		seen[rec.ID]++
	}
	assert.Len(t, seen, rows)
	for id, n := range seen {
		assert.Equal(t, 1, n, "row %s in the results file", id)
	}
	answers := column(t, r.sum.Output, "answer")
	var answered int
	for _, a := range answers {
		if a != "" {
			answered++
		}
	}
	assert.Equal(t, r.sum.Done, answered, "every row done has its answer in the table")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// column reads one column of a CSV table.
func column(t *testing.T, path, name string) []string {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	all, err := r.ReadAll()
	require.NoError(t, err)
	require.NotEmpty(t, all)
	at := -1
	for i, h := range all[0] {
		if strings.TrimPrefix(h, "\ufeff") == name {
			at = i
		}
	}
	require.GreaterOrEqual(t, at, 0, "no column %q in %s: %v", name, path, all[0])
	var out []string
	for _, row := range all[1:] {
		out = append(out, row[at])
	}
	return out
}
