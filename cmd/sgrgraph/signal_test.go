package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/sgrtest/servers"
)

// signalBound is how soon after a signal every command must have ended:
// the one-second grace period plus room for a machine busy with other
// test binaries (go test runs packages side by side).
const signalBound = 3 * time.Second

// TestExitCodeRule: one rule for every command. A command a signal ends
// exits with 128 plus the signal's number, even one (chat) that treats the
// interrupt as a normal end and returns no error.
func TestExitCodeRule(t *testing.T) {
	t.Run("success and failure", func(t *testing.T) {
		var stdout, stderr lockedBuffer
		assert.Equal(t, 0, execute([]string{"tables"}, strings.NewReader(""), &stdout, &stderr, nil, time.Minute))
		assert.Contains(t, stdout.String(), "DT-006")
		assert.Equal(t, 1, execute([]string{"decide", "DT-002", "spam_score=abc"}, strings.NewReader(""), &stdout, &stderr, nil, time.Minute))
		assert.Contains(t, stderr.String(), "sgrgraph: spam_score: abc is not a number\n")
	})
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
		t.Run("chat ended by "+signalName(tc.sig), func(t *testing.T) {
			var stdout, stderr lockedBuffer
			in, w := io.Pipe() // nothing is ever typed
			defer w.Close()
			signals := make(chan os.Signal, 2)
			code := make(chan int, 1)
			go func() {
				code <- execute([]string{"chat", "--cache-dir", docsCache}, in, &stdout, &stderr, signals, time.Minute)
			}()
			require.Eventually(t, func() bool { return strings.Contains(stdout.String(), "> ") }, time.Minute, 10*time.Millisecond)
			signals <- tc.sig
			select {
			case got := <-code:
				assert.Equal(t, tc.code, got)
				assert.Equal(t, "sgrgraph: interrupted by "+signalName(tc.sig)+"\n", stderr.String(),
					"the chat stopped by itself, well before the grace period")
			case <-time.After(time.Minute):
				t.Fatal("chat did not end after the signal")
			}
		})
	}
}

// TestSignalsEndTheBinary sends real signals to the built command while it
// works and checks that it ends within the bound with the signal's code:
// commands that watch the signal's context stop by themselves, the others
// are ended when the grace period runs out, and a second signal ends the
// process at once.
func TestSignalsEndTheBinary(t *testing.T) {
	bin := servers.Sgrgraph(t)

	t.Run("chat waiting for input, SIGINT", func(t *testing.T) {
		p := start(t, bin, "chat", "--cache-dir", docsCache)
		p.await(t, func() bool { return strings.Contains(p.stdout.String(), "> ") })
		p.signal(t, syscall.SIGINT)
		p.expect(t, 130, "sgrgraph: interrupted by SIGINT\n")
	})

	t.Run("chat waiting for input, SIGTERM", func(t *testing.T) {
		p := start(t, bin, "chat", "--cache-dir", docsCache)
		p.await(t, func() bool { return strings.Contains(p.stdout.String(), "> ") })
		p.signal(t, syscall.SIGTERM)
		p.expect(t, 143, "sgrgraph: interrupted by SIGTERM\n")
	})

	t.Run("batch on a big table, SIGTERM", func(t *testing.T) {
		dir := t.TempDir()
		input := filepath.Join(dir, "tickets.csv")
		out, err := exec.Command(bin, "batch", "--make-example", input, "--rows", "5000").CombinedOutput()
		require.NoError(t, err, string(out))
		p := start(t, bin, "batch", "--input", input, "--cache-dir", docsCache)
		results := filepath.Join(dir, "tickets.out.results.jsonl")
		p.await(t, func() bool { info, err := os.Stat(results); return err == nil && info.Size() > 0 })
		p.signal(t, syscall.SIGTERM)
		// On an idle machine batch stops by itself and writes its output
		// table; on a loaded one the grace period may end it first. Either
		// way the finished rows are in the results file for the next run.
		p.expect(t, 143, "SIGTERM")
	})

	t.Run("index of a large folder, SIGINT", func(t *testing.T) {
		kbDir, cache := t.TempDir(), filepath.Join(t.TempDir(), "cache")
		writeArticles(t, kbDir, 1500)
		p := start(t, bin, "index", "--kb", kbDir, "--cache-dir", cache)
		// The cache folder is made once every file is read; indexing them
		// takes seconds more.
		p.await(t, func() bool { _, err := os.Stat(cache); return err == nil })
		p.signal(t, syscall.SIGINT)
		p.expect(t, 130, "SIGINT")
	})

	t.Run("blocked reading the configuration, SIGTERM", func(t *testing.T) {
		fifo, hold := blockedConfig(t)
		p := start(t, bin, "--config", fifo, "tables")
		hold(p)
		p.signal(t, syscall.SIGTERM)
		p.expect(t, 143, "sgrgraph: SIGTERM: the command had not stopped 1s after it; stopped\n")
	})

	t.Run("a second signal ends at once", func(t *testing.T) {
		fifo, hold := blockedConfig(t)
		p := start(t, bin, "--config", fifo, "tables")
		hold(p)
		p.signal(t, syscall.SIGINT)
		time.Sleep(100 * time.Millisecond)
		p.signal(t, syscall.SIGINT)
		p.expect(t, 130, "sgrgraph: SIGINT again: stopped at once\n")
		assert.NotContains(t, p.stderr.String(), "had not stopped", "ended by the second signal, not by the grace period")
	})
}

// process is a started command with its output.
type process struct {
	cmd            *exec.Cmd
	stdout, stderr *lockedBuffer
	exited         chan struct{}
	signalled      time.Time
}

// start runs the binary with a standard input that stays open and silent,
// with a TMPDIR in the test's folder, in a process group of its own that
// ends with the test (also when the test process dies).
func start(t *testing.T, bin string, args ...string) *process {
	t.Helper()
	stdin, typist, err := os.Pipe()
	require.NoError(t, err)
	p := &process{cmd: exec.Command(bin, args...), stdout: &lockedBuffer{}, stderr: &lockedBuffer{}, exited: make(chan struct{})}
	p.cmd.Stdin, p.cmd.Stdout, p.cmd.Stderr = stdin, p.stdout, p.stderr
	p.cmd.Env = append(os.Environ(), "TMPDIR="+t.TempDir())
	ownGroup(p.cmd)
	require.NoError(t, p.cmd.Start())
	stdin.Close()
	go func() {
		_ = p.cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		typist.Close()
		select {
		case <-p.exited:
		default:
			_ = p.cmd.Process.Kill()
			<-p.exited
		}
		killGroup(p.cmd)
	})
	return p
}

// await waits until ready holds while the process still runs.
func (p *process) await(t *testing.T, ready func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for !ready() {
		select {
		case <-p.exited:
			t.Fatalf("ended before it was ready: %s\nstdout: %s\nstderr: %s", p.cmd.ProcessState, p.stdout, p.stderr)
		case <-time.After(20 * time.Millisecond):
		}
		require.True(t, time.Now().Before(deadline), "never ready; stderr: %s", p.stderr)
	}
}

func (p *process) signal(t *testing.T, sig syscall.Signal) {
	t.Helper()
	if p.signalled.IsZero() {
		p.signalled = time.Now()
	}
	require.NoError(t, p.cmd.Process.Signal(sig))
}

// expect checks that the process ended within signalBound of the first
// signal with code, and that its standard error holds want.
func (p *process) expect(t *testing.T, code int, want string) {
	t.Helper()
	select {
	case <-p.exited:
	case <-time.After(time.Minute):
		t.Fatalf("still running a minute after the signal; stderr: %s", p.stderr)
	}
	took := time.Since(p.signalled)
	t.Logf("ended %s after the signal with %d: %s", took.Round(time.Millisecond), p.cmd.ProcessState.ExitCode(), lastLine(p.stderr.String()))
	assert.Less(t, took, signalBound, "ended %s after the signal", took)
	assert.Equal(t, code, p.cmd.ProcessState.ExitCode(), "stderr: %s", p.stderr)
	assert.Contains(t, p.stderr.String(), want)
}

// blockedConfig makes a FIFO to pass as --config and returns, with its path,
// a function that waits until the command has opened it and then holds it
// open without writing: the command is then blocked in a read that no
// context can cancel.
func blockedConfig(t *testing.T) (string, func(*process)) {
	t.Helper()
	fifo := filepath.Join(t.TempDir(), "config.yaml")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	return fifo, func(p *process) {
		t.Helper()
		var w *os.File
		p.await(t, func() bool {
			// Opening the write end without blocking fails until a reader has it open.
			f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0)
			if err != nil {
				require.True(t, errors.Is(err, syscall.ENXIO), "open %s: %v", fifo, err)
				return false
			}
			w = f
			return true
		})
		t.Cleanup(func() { w.Close() })
	}
}

// writeArticles writes n Markdown articles of a few kilobytes each.
func writeArticles(t *testing.T, dir string, n int) {
	t.Helper()
	words := strings.Fields("guard table routing safety index search model agent verdict evidence policy spam score retry")
	var body strings.Builder
	for s := range 6 {
		fmt.Fprintf(&body, "## Section %d\n\n", s)
		for w := range 150 {
			body.WriteString(words[(s*7+w*w)%len(words)] + " ")
		}
		body.WriteString("\n\n")
	}
	for i := range n {
		text := fmt.Sprintf("# Article %d\n\n%s", i, body.String())
		require.NoError(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("a%05d.md", i)), []byte(text), 0o600))
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
