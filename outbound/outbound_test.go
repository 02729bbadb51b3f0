package outbound

import (
	"context"
	"errors"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBackoff(t *testing.T) {
	p := Policy{Attempts: 5, BaseDelay: 100 * time.Millisecond, MaxDelay: 300 * time.Millisecond}
	top := func(n int64) int64 { return n - 1 } // the ceiling itself
	assert.Equal(t, 100*time.Millisecond, p.Backoff(1, top))
	assert.Equal(t, 200*time.Millisecond, p.Backoff(2, top))
	assert.Equal(t, 300*time.Millisecond, p.Backoff(3, top), "capped at max_delay")
	assert.Equal(t, 300*time.Millisecond, p.Backoff(40, top), "no overflow on long runs")
	assert.Equal(t, time.Duration(0), p.Backoff(2, func(int64) int64 { return 0 }), "full jitter reaches zero")
	assert.Equal(t, time.Duration(0), Policy{Attempts: 3, MaxDelay: time.Second}.Backoff(2, top), "no base delay, no wait")
	for range 100 {
		d := p.Backoff(2, nil)
		assert.True(t, d >= 0 && d <= 200*time.Millisecond, "random draw in range: %s", d)
	}
}

func TestPolicyValidate(t *testing.T) {
	assert.NoError(t, DefaultPolicy().Validate())
	err := Policy{Attempts: 0, BaseDelay: -1, MaxDelay: time.Hour}.Validate()
	assert.ErrorContains(t, err, "attempts: 0 is outside 1..10")
	assert.ErrorContains(t, err, "base_delay: -1ns is outside 0..1m")
	assert.ErrorContains(t, err, "max_delay: 1h0m0s is outside base_delay..5m")
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		value string
		want  time.Duration
		ok    bool
	}{
		{"", 0, false},
		{"3", 3 * time.Second, true},
		{now.Add(5 * time.Second).Format(http.TimeFormat), 5 * time.Second, true},
		{now.Add(-time.Minute).Format(http.TimeFormat), 0, true},
		{"soon", 0, false},
		{"9300000000000", time.Duration(math.MaxInt64), true},
	} {
		got, ok := RetryAfter(http.Header{"Retry-After": {tc.value}}, now)
		assert.Equal(t, tc.ok, ok, tc.value)
		assert.Equal(t, tc.want, got, tc.value)
	}
}

// flaky answers the statuses in order, then 200.
func flaky(t *testing.T, statuses ...int) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		n := int(calls.Add(1))
		assert.Equal(t, "payload", string(body), "every try sends the whole body")
		assert.Equal(t, "Bearer k", r.Header.Get("Authorization"))
		if n <= len(statuses) {
			if statuses[n-1] == http.StatusTooManyRequests {
				w.Header().Set("Retry-After", "0")
			}
			w.WriteHeader(statuses[n-1])
			return
		}
		_, _ = w.Write([]byte("ok"))
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

func TestTransport(t *testing.T) {
	fast := Policy{Attempts: 3, BaseDelay: time.Millisecond, MaxDelay: 10 * time.Millisecond}
	tests := []struct {
		name     string
		statuses []int
		status   int // of the answer the caller gets
		calls    int32
		retried  []bool
	}{
		{"success at once", nil, 200, 1, nil},
		{"500 then success", []int{500}, 200, 2, []bool{true}},
		{"429 honours Retry-After", []int{429, 503}, 200, 3, []bool{true, true}},
		{"gives up after the attempts", []int{500, 502, 503}, 503, 3, []bool{true, true, false}},
		{"400 is never retried", []int{400}, 400, 1, nil},
		{"401, 403, 404 neither", []int{404}, 404, 1, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv, calls := flaky(t, tc.statuses...)
			var mu sync.Mutex
			var seen []bool
			ctx := WithObserver(context.Background(), func(_ context.Context, a Attempt) {
				mu.Lock()
				defer mu.Unlock()
				seen = append(seen, a.Retried)
				assert.Equal(t, "model", a.Service)
				assert.NotEmpty(t, a.Error)
			})
			c := Client("model", fast, http.Header{"Authorization": {"Bearer k"}}, Timeouts{})
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader("payload"))
			require.NoError(t, err)
			resp, err := c.Do(req)
			require.NoError(t, err)
			resp.Body.Close()
			assert.Equal(t, tc.status, resp.StatusCode)
			assert.Equal(t, tc.calls, calls.Load())
			assert.Equal(t, tc.retried, seen)
		})
	}
}

func TestTransportRetriesConnectionErrors(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	ln.Close() // nothing listens: connection refused
	var tries []Attempt
	ctx := WithObserver(context.Background(), func(_ context.Context, a Attempt) { tries = append(tries, a) })
	c := Client("guard", Policy{Attempts: 2, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond}, nil, Timeouts{})
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr, nil)
	_, err = c.Do(req)
	require.Error(t, err)
	require.Len(t, tries, 2)
	assert.Contains(t, tries[0].Error, "connection refused")
	assert.True(t, tries[0].Retried)
	assert.Contains(t, tries[1].Error, "gave up after 2 tries")
}

func TestTransportDoesNotRetryWhatCannotSucceed(t *testing.T) {
	srv := httptest.NewTLSServer(http.NotFoundHandler()) // a certificate the client does not trust
	defer srv.Close()
	var tries []Attempt
	ctx := WithObserver(context.Background(), func(_ context.Context, a Attempt) { tries = append(tries, a) })
	c := Client("model", Policy{Attempts: 3, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond}, nil, Timeouts{})
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
	_, err := c.Do(req)
	require.Error(t, err)
	require.Len(t, tries, 1)
	assert.Contains(t, tries[0].Error, "a retry cannot mend this")
}

func TestTransportWillNotWaitPastLimits(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Retry-After", "120")
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	defer srv.Close()
	var last Attempt
	ctx := WithObserver(context.Background(), func(_ context.Context, a Attempt) { last = a })
	c := Client("model", Policy{Attempts: 5, BaseDelay: time.Millisecond, MaxDelay: time.Second}, nil, Timeouts{})
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
	resp, err := c.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, 429, resp.StatusCode, "the server's own answer reaches the caller")
	assert.Contains(t, last.Error, "server asks to wait 2m0s, over max_delay 1s")

	ctx, cancel := context.WithTimeout(WithObserver(context.Background(), func(_ context.Context, a Attempt) { last = a }), 50*time.Millisecond)
	defer cancel()
	srv2, _ := flaky(t, 500, 500, 500)
	c = Client("model", Policy{Attempts: 5, BaseDelay: time.Second, MaxDelay: time.Second}, http.Header{"Authorization": {"Bearer k"}}, Timeouts{})
	req, _ = http.NewRequestWithContext(ctx, http.MethodPost, srv2.URL, strings.NewReader("payload"))
	start := time.Now()
	_, _ = c.Do(req)
	assert.Less(t, time.Since(start), time.Second, "no wait that cannot end before the deadline")
}

func TestTransportStopsOnCancel(t *testing.T) {
	srv, _ := flaky(t, 500, 500, 500, 500)
	ctx, cancel := context.WithCancel(context.Background())
	c := &http.Client{Transport: &Transport{Policy: Policy{Attempts: 5, BaseDelay: time.Hour, MaxDelay: time.Hour},
		Header: http.Header{"Authorization": {"Bearer k"}}, Draw: func(n int64) int64 { return n - 1 }}}
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader("payload"))
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	_, err := c.Do(req)
	assert.True(t, errors.Is(err, context.Canceled), "cancel ends the wait at once: %v", err)
}
