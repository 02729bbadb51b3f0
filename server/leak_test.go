package server

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

// TestClientCutsStream: a client that goes away mid-stream ends its turn,
// and nothing of the request (handler, turn, graph) is left running.
func TestClientCutsStream(t *testing.T) {
	held, started := heldAgent(t)
	tests := []struct {
		name  string
		s     *Server
		cutAt string // the stream is cut after the first data line holding this
		wait  <-chan struct{}
	}{
		{"while the turn thinks", New(held, Options{}), `"role":"assistant"`, started},
		{"mid-answer", New(offline, Options{}), `"content":`, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := goleak.IgnoreCurrent()
			ts := httptest.NewServer(tc.s)
			transport := &http.Transport{}
			ctx, cancel := context.WithCancel(context.Background())
			body := `{"model":"m","stream":true,"messages":[{"role":"user","content":"` + question + `"}]}`
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL+"/v1/chat/completions", strings.NewReader(body))
			require.NoError(t, err)
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
