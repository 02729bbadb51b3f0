// Package servers starts real database servers for tests: redis-server and
// Postgres, each on a free loopback port in a temporary directory, stopped
// when the test ends (also when it fails).
//
// A missing binary or a server that does not start fails the test with the
// reason and how to install it; it never skips, so a machine without the
// servers cannot pass the suite by accident.
package servers

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// startTimeout bounds how long a server may take to answer.
const startTimeout = 30 * time.Second

// install is the hint every failure to find or start a server ends with.
const install = "install the servers with: apt-get install -y redis-server postgresql"

// attempts is how often a start is tried on a new port: another process may
// take the free port between choosing it and the server binding it.
const attempts = 3

// freePort returns a loopback port that was free a moment ago.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer func() { _ = l.Close() }()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// lookPath finds a server binary or fails the test saying how to install it.
func lookPath(tb testing.TB, name string) string {
	tb.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		tb.Fatalf("servers: %s not found on PATH: %v; %s", name, err, install)
	}
	return path
}

// tail returns the end of a log file, to explain why a server did not start.
func tail(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Sprintf("(no log: %v)", err)
	}
	s := strings.TrimSpace(string(b))
	if len(s) > 2000 {
		s = "…" + s[len(s)-2000:]
	}
	return s
}

// waitFor polls ready until it succeeds, exited is closed (the process is
// gone; nil: not watched), or startTimeout passes.
func waitFor(ready func() error, exited <-chan struct{}) error {
	deadline := time.Now().Add(startTimeout)
	for {
		err := ready()
		if err == nil {
			return nil
		}
		select {
		case <-exited:
			return fmt.Errorf("the server exited: %w", err)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no answer within %s: %w", startTimeout, err)
		}
	}
}

// isClosed says whether ch is closed, without waiting.
func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
