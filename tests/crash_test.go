package tests

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/checkpoint/postgres"
	"github.com/sgrgraph/sgrgraph/checkpoint/sqlite"
	"github.com/sgrgraph/sgrgraph/graph"
	"github.com/sgrgraph/sgrgraph/sgrtest/servers"
)

// The environment of the child process TestCrashSafety starts and kills.
const (
	crashStore = "SGRGRAPH_CRASH_STORE" // sqlite:PATH or a postgres URL
	crashRuns  = "SGRGRAPH_CRASH_RUNS"  // the file each node run is appended to
)

// Steps is the state of the graph the crash test runs.
type Steps struct{ Done []string }

// crashGraph is START → a → b → c → END; each node appends its name to the
// runs file as it starts, so runs are counted across processes, and c
// kills its process when told to.
func crashGraph(t testing.TB, store checkpoint.Store, runs string, killAt string) *graph.Runnable[*Steps] {
	node := func(name string) graph.NodeFunc[*Steps] {
		return func(_ context.Context, s *Steps) (*Steps, error) {
			f, err := os.OpenFile(runs, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
			if err != nil {
				return nil, err
			}
			_, err = f.WriteString(name + "\n")
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return nil, err
			}
			if name == killAt {
				_ = syscall.Kill(os.Getpid(), syscall.SIGKILL) // no deferred function, no flush: as a crash
				select {}
			}
			s.Done = append(s.Done, name)
			return s, nil
		}
	}
	r, err := graph.New[*Steps]("crash").
		AddNode("a", node("a")).AddNode("b", node("b")).AddNode("c", node("c")).
		AddEdge(graph.START, "a").AddEdge("a", "b").AddEdge("b", "c").AddEdge("c", graph.END).
		Compile(context.Background(), graph.WithCheckpointer(store))
	require.NoError(t, err)
	return r
}

func openCrashStore(t testing.TB, where string) checkpoint.Store {
	var store checkpoint.Store
	var err error
	if path, ok := strings.CutPrefix(where, "sqlite:"); ok {
		store, err = sqlite.Open(path)
	} else {
		store, err = postgres.Open(context.Background(), where)
	}
	require.NoError(t, err)
	return store
}

// TestCrashChild is the process TestCrashSafety kills; run alone, it does
// nothing.
func TestCrashChild(t *testing.T) {
	where := os.Getenv(crashStore)
	if where == "" {
		return
	}
	store := openCrashStore(t, where)
	r := crashGraph(t, store, os.Getenv(crashRuns), "c")
	_, err := r.Invoke(context.Background(), &Steps{}, graph.WithThread("crash"))
	t.Fatalf("the run should have been killed in c, it returned %v", err)
}

func TestCrashSafety(t *testing.T) {
	for _, tc := range []struct {
		name  string
		store func(t *testing.T) string
	}{
		{"sqlite", func(t *testing.T) string { return "sqlite:" + filepath.Join(t.TempDir(), "threads.db") }},
		{"postgres", func(t *testing.T) string { return servers.Postgres(t) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			where := tc.store(t)
			runs := filepath.Join(t.TempDir(), "runs")
			child := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
			child.Env = append(os.Environ(), crashStore+"="+where, crashRuns+"="+runs, "TMPDIR="+t.TempDir()) // a killed child leaves its temporary folders: under the parent's they are removed
			out, err := child.CombinedOutput()
			var exit *exec.ExitError
			require.ErrorAs(t, err, &exit, "the child should die: %s", out)
			require.Equal(t, syscall.SIGKILL, exit.Sys().(syscall.WaitStatus).Signal(), "killed by SIGKILL: %s", out)

			store := openCrashStore(t, where)
			defer store.Close()
			r := crashGraph(t, store, runs, "")
			snap, err := r.State(context.Background(), "crash")
			require.NoError(t, err)
			assert.Equal(t, []string{"c"}, snap.Next, "the thread waits before the node it died in")
			s, err := r.Resume(context.Background(), "crash", nil)
			require.NoError(t, err)
			assert.Equal(t, []string{"a", "b", "c"}, s.Done)
			data, err := os.ReadFile(runs)
			require.NoError(t, err)
			assert.Equal(t, "a\nb\nc\nc\n", string(data), "a and b ran once across the kill; only c ran again")
		})
	}
}
