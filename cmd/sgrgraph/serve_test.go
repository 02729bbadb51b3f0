package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/sgrtest/openaitest"
)

var listening = regexp.MustCompile(`listening on (http://127\.0\.0\.1:\d+)\n`)

// awaitAddress waits for serve to print where it listens.
func awaitAddress(t *testing.T, stdout, stderr *lockedBuffer) string {
	t.Helper()
	var url string
	require.Eventually(t, func() bool {
		m := listening.FindStringSubmatch(stdout.String())
		if m != nil {
			url = m[1]
		}
		return m != nil
	}, time.Minute, 10*time.Millisecond, "serve did not print its address; stderr: %s", stderr)
	return url
}

func get(t *testing.T, url, key string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	require.NoError(t, err)
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	return res.StatusCode
}

func TestServeStartsAndStops(t *testing.T) {
	t.Setenv("SGRGRAPH_API_KEYS", " k2 ,k3")
	var stdout, stderr lockedBuffer
	a := &app{out: &stdout, errOut: &stderr, logLevel: "info"}
	require.NoError(t, a.setup())
	cmd := newServeCmd(a)
	dir := t.TempDir()
	cmd.SetArgs([]string{"--addr", "127.0.0.1:0", "--cache-dir", docsCache, "--store", filepath.Join(dir, "threads.db"), "--api-key", "k1"})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- cmd.ExecuteContext(ctx) }()
	url := awaitAddress(t, &stdout, &stderr)

	assert.Equal(t, http.StatusOK, get(t, url+"/healthz", ""))
	assert.Equal(t, http.StatusOK, get(t, url+"/readyz", ""))
	assert.Equal(t, http.StatusUnauthorized, get(t, url+"/v1/models", ""))
	for _, key := range []string{"k1", "k2", "k3"} { // the flag's key and the environment's
		assert.Equal(t, http.StatusOK, get(t, url+"/v1/models", key), key)
	}
	req, _ := http.NewRequest(http.MethodPost, url+"/v1/chat/completions",
		strings.NewReader(`{"model":"sgrgraph","messages":[{"role":"user","content":"How do I configure the safety guard?"}]}`))
	req.Header.Set("Authorization", "Bearer k1")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Session-Id", "s1") // serve always keeps threads
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusOK, res.StatusCode)
	assert.Equal(t, http.StatusOK, get(t, url+"/v1/threads/s1", "k1"))
	assert.Contains(t, stderr.String(), "status=200", "the access log")
	// A request's line is written as its handler returns, which may be
	// just after its client has read the whole answer.
	assert.Eventually(t, func() bool { return strings.Contains(stderr.String(), "path=/v1/chat/completions") },
		5*time.Second, 10*time.Millisecond, "the access log of the chat completion")
	assert.NotContains(t, stderr.String(), "k1", "the log names keys by id, never the key")

	cancel()
	select {
	case err := <-served:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop after its context ended")
	}
	_, err = http.Get(url + "/healthz")
	assert.Error(t, err, "the listener is closed")
}

// TestLoopback: serve warns when it listens beyond loopback without keys.
func TestLoopback(t *testing.T) {
	assert.True(t, loopback(mustTCP(t, "127.0.0.1:80")))
	assert.True(t, loopback(mustTCP(t, "[::1]:80")))
	assert.False(t, loopback(mustTCP(t, "0.0.0.0:80")))
	assert.False(t, loopback(mustTCP(t, "192.0.2.1:80")))
}

// TestServeHosts: without keys the server answers to --allowed-hosts and
// to the name --addr listens on; an address in --addr needs no entry, as
// the server allows the address a client connected to.
func TestServeHosts(t *testing.T) {
	for addr, want := range map[string][]string{
		"chat.lan:8080": {"a.example", "b.example:8443", "chat.lan"},
		"0.0.0.0:8080":  {"a.example", "b.example:8443"},
		"127.0.0.1:0":   {"a.example", "b.example:8443"},
		"[::]:8080":     {"a.example", "b.example:8443"},
		":8080":         {"a.example", "b.example:8443"},
	} {
		f := serveFlags{addr: addr, allowedHosts: []string{"a.example", "b.example:8443"}}
		assert.Equal(t, want, f.hosts(), addr)
		assert.Len(t, f.allowedHosts, 2, "the flag's values stay as given")
	}
}

func mustTCP(t *testing.T, addr string) *net.TCPAddr {
	t.Helper()
	a, err := net.ResolveTCPAddr("tcp", addr)
	require.NoError(t, err)
	return a
}

// TestServeEndsOnSignal runs serve the way main does: SIGTERM ends it
// with 143, after readyz has gone 503 and the server has shut down.
func TestServeEndsOnSignal(t *testing.T) {
	var stdout, stderr lockedBuffer
	signals := make(chan os.Signal, 2)
	code := make(chan int, 1)
	dir := t.TempDir()
	go func() {
		code <- execute([]string{"serve", "--addr", "127.0.0.1:0", "--cache-dir", docsCache, "--store", filepath.Join(dir, "threads.db")},
			strings.NewReader(""), &stdout, &stderr, signals, time.Minute)
	}()
	url := awaitAddress(t, &stdout, &stderr)
	assert.Equal(t, http.StatusOK, get(t, url+"/healthz", ""))
	signals <- syscall.SIGTERM
	select {
	case got := <-code:
		assert.Equal(t, 143, got)
		assert.Equal(t, "sgrgraph: interrupted by SIGTERM\n", stderr.String())
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not end after SIGTERM")
	}
}

// TestServeFinishesTurnsInFlight: SIGTERM during a slow turn (each model
// call takes 300 ms) ends serve only after the turn has answered.
func TestServeFinishesTurnsInFlight(t *testing.T) {
	model := engineServer(t, openaitest.WithFaults(func(openaitest.Request) openaitest.Fault {
		return openaitest.Fault{Delay: 300 * time.Millisecond}
	}))
	var stdout, stderr lockedBuffer
	signals := make(chan os.Signal, 2)
	code := make(chan int, 1)
	dir := t.TempDir()
	go func() {
		code <- execute([]string{"serve", "--addr", "127.0.0.1:0", "--cache-dir", docsCache, "--store", filepath.Join(dir, "threads.db"),
			"--provider", "openai", "--base-url", model.URL, "--model", "m"}, strings.NewReader(""), &stdout, &stderr, signals, time.Minute)
	}()
	url := awaitAddress(t, &stdout, &stderr)
	type reply struct {
		status int
		body   string
		err    error
	}
	answered := make(chan reply, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, url+"/v1/chat/completions",
			strings.NewReader(`{"model":"sgrgraph","messages":[{"role":"user","content":"How do I configure the safety guard?"}]}`))
		req.Header.Set("X-Sgrgraph-Result", "full")
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			answered <- reply{err: err}
			return
		}
		defer res.Body.Close()
		body, err := io.ReadAll(res.Body)
		answered <- reply{res.StatusCode, string(body), err}
	}()
	require.Eventually(t, func() bool { return len(model.Requests()) > 0 }, 10*time.Second, 5*time.Millisecond, "the turn did not reach the model")
	signals <- syscall.SIGTERM

	select {
	case r := <-answered:
		require.NoError(t, r.err)
		assert.Equal(t, http.StatusOK, r.status, r.body)
		assert.Contains(t, r.body, `"finish_reason":"stop"`)
		assert.Contains(t, r.body, `"verdict":"PASS"`)
	case <-time.After(30 * time.Second):
		t.Fatal("the turn in flight got no answer")
	}
	select {
	case got := <-code:
		assert.Equal(t, 143, got)
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not end after its last turn")
	}
	assert.Greater(t, len(model.Requests()), 1, "the turn went on calling the model after the signal")
}
