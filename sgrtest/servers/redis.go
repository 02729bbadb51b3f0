package servers

import (
	"bufio"
	"fmt"
	"net"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Redis starts redis-server without persistence and returns its URL,
// redis://127.0.0.1:PORT/0. The server stops when the test ends.
func Redis(tb testing.TB) (url string) {
	tb.Helper()
	bin := lookPath(tb, "redis-server")
	var errs []string
	for range attempts {
		url, err := startRedis(tb, bin)
		if err == nil {
			return url
		}
		errs = append(errs, err.Error())
	}
	tb.Fatalf("servers: redis-server did not start: %s; %s", strings.Join(errs, "; "), install)
	return ""
}

func startRedis(tb testing.TB, bin string) (string, error) {
	dir := tb.TempDir()
	port, err := freePort()
	if err != nil {
		return "", err
	}
	logPath := filepath.Join(dir, "redis.log")
	cmd := exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--dir", dir,
		"--save", "", "--appendonly", "no", "--daemonize", "no", "--logfile", logPath)
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("start %s: %w", bin, err)
	}
	exited := make(chan struct{})
	var exitErr error
	go func() { exitErr = cmd.Wait(); close(exited) }()
	stop := func() {
		_ = cmd.Process.Kill() // no data to keep: the server never saves
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			tb.Errorf("servers: redis-server (pid %d) did not stop", cmd.Process.Pid)
		}
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	if err := waitFor(func() error { return pingRedis(addr) }, exited); err != nil {
		stop()
		if isClosed(exited) {
			err = fmt.Errorf("%w (%w)", err, exitErr)
		}
		return "", fmt.Errorf("port %d: %w; log: %s", port, err, tail(logPath))
	}
	tb.Cleanup(stop)
	return "redis://" + addr + "/0", nil
}

// pingRedis sends PING in the Redis protocol and expects PONG.
func pingRedis(addr string) error {
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return err
	}
	defer func() { _ = conn.Close() }()
	_ = conn.SetDeadline(time.Now().Add(time.Second))
	if _, err := conn.Write([]byte("PING\r\n")); err != nil {
		return err
	}
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		return err
	}
	if strings.TrimSpace(line) != "+PONG" {
		return fmt.Errorf("PING answered %q", strings.TrimSpace(line))
	}
	return nil
}
