package server

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cloudwego/eino/schema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/sgrgraph/sgrgraph/checkpoint"
)

// TestClientCutsStream: a client that goes away mid-stream ends its turn,
// and nothing of the request (handler, turn, graph) is left running.
func TestClientCutsStream(t *testing.T) {
	held, started := heldAgent(t)
	// The role chunk goes out with the stream's first line; a turn held in
	// its model call sends none, so the first is a keep-alive line, sent
	// here every 50 ms rather than every 15 s.
	thinking := New(held, Options{})
	thinking.keepAlive = 50 * time.Millisecond
	tests := []struct {
		name  string
		s     *Server
		cutAt string // the stream is cut after the first data line holding this
		wait  <-chan struct{}
	}{
		{"while the turn thinks", thinking, `"role":"assistant"`, started},
		{"mid-answer", New(offline, Options{}), `"content":`, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := goleak.IgnoreCurrent()
			ts := httptest.NewServer(tc.s)
			transport := &http.Transport{}
			ctx, cancel := context.WithCancel(context.Background())
			body := `{"model":"sgrgraph","stream":true,"messages":[{"role":"user","content":"` + question + `"}]}`
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL+"/v1/chat/completions", strings.NewReader(body))
			require.NoError(t, err)
			req.Header.Set("Content-Type", "application/json")
			res, err := (&http.Client{Transport: transport}).Do(req)
			require.NoError(t, err)
			sc := bufio.NewScanner(res.Body)
			for sc.Scan() && !strings.Contains(sc.Text(), tc.cutAt) {
			}
			if tc.wait != nil {
				select {
				case <-tc.wait:
				case <-time.After(10 * time.Second):
					t.Fatal("the turn did not start")
				}
			}
			cancel()
			res.Body.Close()
			transport.CloseIdleConnections()
			closed := make(chan struct{})
			go func() { ts.Close(); close(closed) }() // Close waits for the handler to return
			select {
			case <-closed:
			case <-time.After(10 * time.Second):
				t.Fatal("the handler still runs 10 s after its client went away")
			}
			goleak.VerifyNone(t, before)
		})
	}
}

// TestManyCutStreams: 500 streamed turns of 500 sessions, cut by their
// clients while the turn thinks (after the role chunk) or at the answer's
// first token, leave no goroutine behind, and no
// session that a next turn would continue from half a turn: each has no
// turn, or one whole turn (its question and its answer).
func TestManyCutStreams(t *testing.T) {
	const streams, clients = 500, 32
	before := goleak.IgnoreCurrent()
	// A cut turn holds its slot until its handler has noticed and returned,
	// which on a busy machine may be well after its client has moved on:
	// a slot for every stream keeps 429s out of a test about leaks.
	ts := httptest.NewServer(New(offline, Options{MaxTurnsPerKey: streams, Sessions: true}))
	transport := &http.Transport{MaxIdleConnsPerHost: clients}
	client := &http.Client{Transport: transport}
	body := `{"model":"sgrgraph","stream":true,"messages":[{"role":"user","content":"` + question + `"}]}`
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs []error
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				at := []string{`"role":"assistant"`, `"content":`}[i%2]
				if err := cutStream(client, ts.URL, body, fmt.Sprintf("cut-%d", i), at); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		}()
	}
	for i := range streams {
		next <- i
	}
	close(next)
	wg.Wait()
	require.Empty(t, errs)
	transport.CloseIdleConnections()
	closed := make(chan struct{})
	go func() { ts.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(30 * time.Second):
		t.Fatal("handlers still run 30 s after their clients went away")
	}
	goleak.VerifyNone(t, before)

	var whole, none int
	for i := range streams {
		last, err := offline.LastTurn(context.Background(), threadOf(anonymous, fmt.Sprintf("cut-%d", i)))
		if errors.Is(err, checkpoint.ErrNotFound) {
			none++
			continue
		}
		require.NoError(t, err)
		require.Empty(t, last.Next, "session cut-%d: its turn ended", i)
		msgs := last.State.Messages
		assert.Equal(t, schema.User, msgs[0].Role)
		assert.Equal(t, schema.Assistant, msgs[len(msgs)-1].Role, "session cut-%d ends with its answer", i)
		assert.NotEmpty(t, last.State.Answer)
		whole++
	}
	t.Logf("%d streams cut: %d sessions kept one whole turn, %d none", streams, whole, none)
}

// cutStream posts a streamed turn and goes away after the first data line
// holding at.
func cutStream(client *http.Client, url, body, session, at string) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+"/v1/chat/completions", strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set(sessionHeader, session)
	req.Header.Set("Content-Type", "application/json")
	res, err := client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("session %s: status %d", session, res.StatusCode)
	}
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		if strings.Contains(sc.Text(), at) {
			return nil // the deferred cancel cuts the stream here
		}
	}
	return fmt.Errorf("session %s: the stream ended without %s", session, at)
}
