package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/sgrtest/servers"
)

const (
	kbQuestion = "How do I configure the safety guard?"
	// askers is how many processes start at once on one fresh cache.
	askers = 16
	// askTrials is how many times they do.
	askTrials = 20
	// askDeadline is far beyond the fraction of a second one ask takes,
	// even on a loaded machine; a process still running then has hung.
	askDeadline = 60 * time.Second
)

// askOutput is the part of `ask --json` this test judges.
type askOutput struct {
	Answer  string `json:"answer"`
	Verdict struct {
		Verdict string `json:"verdict"`
	} `json:"verdict"`
	Evidence []json.RawMessage `json:"evidence"`
}

type askRun struct {
	stdout, stderr bytes.Buffer
	err            error
	killed         bool
}

func (r *askRun) String() string {
	return fmt.Sprintf("err %v, killed %t\nstdout: %s\nstderr: %s", r.err, r.killed, r.stdout.String(), r.stderr.String())
}

// isolatedEnv is the environment without any sgrgraph setting of the
// machine (a configured model would not be the offline engine), with its own
// cache and configuration folders.
func isolatedEnv(cacheHome, configHome string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SGRGRAPH_") && !strings.HasPrefix(kv, "XDG_CACHE_HOME=") && !strings.HasPrefix(kv, "XDG_CONFIG_HOME=") {
			env = append(env, kv)
		}
	}
	return append(env, "XDG_CACHE_HOME="+cacheHome, "XDG_CONFIG_HOME="+configHome)
}

// askAtOnce starts n asks, all before the first can have opened the cache,
// and waits for them; each is killed at the deadline.
func askAtOnce(t *testing.T, bin string, env, args []string, n int) []*askRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), askDeadline)
	defer cancel()
	runs := make([]*askRun, n)
	cmds := make([]*exec.Cmd, n)
	for i := range runs {
		runs[i] = &askRun{}
		cmds[i] = exec.CommandContext(ctx, bin, args...)
		cmds[i].Env, cmds[i].Dir = env, t.TempDir()
		cmds[i].Stdout, cmds[i].Stderr = &runs[i].stdout, &runs[i].stderr
		cmds[i].WaitDelay = time.Second
	}
	var wg sync.WaitGroup
	for i, cmd := range cmds {
		if err := cmd.Start(); err != nil {
			runs[i].err = err
			continue
		}
		wg.Go(func() {
			runs[i].err = cmd.Wait()
			runs[i].killed = runs[i].err != nil && ctx.Err() != nil
		})
	}
	wg.Wait()
	return runs
}

// judge says what is wrong with one ask, or "" when its answer is the
// reference answer, judged PASS with evidence.
func judge(r *askRun, want string) string {
	var out askOutput
	switch {
	case r.killed:
		return fmt.Sprintf("still running after %s, killed", askDeadline)
	case r.err != nil:
		return "did not exit 0"
	case strings.Contains(r.stderr.String(), "panic:") || strings.Contains(r.stderr.String(), "goroutine "):
		return "panicked"
	case json.Unmarshal(r.stdout.Bytes(), &out) != nil:
		return "printed no JSON result"
	case out.Verdict.Verdict != "PASS" || len(out.Evidence) == 0:
		return fmt.Sprintf("verdict %q with %d pieces of evidence", out.Verdict.Verdict, len(out.Evidence))
	case out.Answer != want:
		return "answered otherwise than a lone process"
	}
	return ""
}

// Many processes started at once on an empty cache used to remove and
// recreate the index under each other: wrong answers with exit 0, "cannot
// create new index", panics inside the index library, and processes that
// hung. Half the trials use the default cache of the embedded documentation
// under XDG_CACHE_HOME, half a --cache-dir; both are new for every trial.
func TestKBAskProcessesStartedAtOnceOnAFreshCache(t *testing.T) {
	t.Parallel() // processes of its own, each with its own folders
	began := time.Now()
	bin := servers.Sgrgraph(t)
	t.Logf("build: %s", time.Since(began).Round(time.Millisecond))

	lone := askAtOnce(t, bin, isolatedEnv(t.TempDir(), t.TempDir()), []string{"ask", "--json", kbQuestion}, 1)[0]
	var ref askOutput
	require.NoError(t, lone.err, "%s", lone)
	require.NoError(t, json.Unmarshal(lone.stdout.Bytes(), &ref), "%s", lone)
	require.Equal(t, "PASS", ref.Verdict.Verdict, "%s", lone)

	asking := time.Now()
	failures := 0
	for trial := range askTrials {
		args, cache := []string{"ask", "--json", kbQuestion}, "default cache"
		if trial%2 == 1 {
			args, cache = append(args, "--cache-dir", filepath.Join(t.TempDir(), "cache")), "--cache-dir"
		}
		for i, r := range askAtOnce(t, bin, isolatedEnv(t.TempDir(), t.TempDir()), args, askers) {
			if problem := judge(r, ref.Answer); problem != "" {
				failures++
				t.Errorf("trial %d (%s), process %d: %s\n%s", trial, cache, i, problem, r)
			}
		}
	}
	t.Logf("%d trials of %d processes: %d failed, %s", askTrials, askers, failures, time.Since(asking).Round(time.Millisecond))
}
