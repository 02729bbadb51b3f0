package server

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/telemetry/otlptest"
)

// lockedBuffer is a log the handlers write while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

const (
	callerTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
	callerSpan  = "00f067aa0ba902b7"
)

func TestServeJoinsTheCallersTrace(t *testing.T) {
	r := otlptest.New(t)
	exp, err := otlptracehttp.New(context.Background(), otlptracehttp.WithEndpointURL(r.Endpoint+"/v1/traces"))
	require.NoError(t, err)
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	cfg := config.Default()
	cfg.KB.CacheDir = t.TempDir()
	a, err := agent.New(context.Background(), cfg, agent.Options{Knowledge: offline.Knowledge(), TracerProvider: tp})
	require.NoError(t, err)
	t.Cleanup(func() { a.Close() })
	var log lockedBuffer
	ts := serve(t, a, Options{Tracing: Tracing{Provider: tp}, Log: zerolog.New(&log)})

	body := `{"model":"sgrgraph","messages":[{"role":"user","content":"How do I configure the safety guard?"}]}`
	for _, header := range [][]string{{"traceparent", "00-" + callerTrace + "-" + callerSpan + "-01"}, nil} {
		res := post(t, ts.URL+"/v1/chat/completions", "", body, header...)
		_, _ = io.Copy(io.Discard, res.Body)
		require.Equal(t, http.StatusOK, res.StatusCode)
	}
	probe, err := http.Get(ts.URL + "/healthz")
	require.NoError(t, err)
	probe.Body.Close()

	spans := r.Wait(t, 10*time.Second, func(s []otlptest.Span) bool {
		_ = tp.ForceFlush(context.Background())
		turns := 0
		for _, sp := range s {
			if sp.Name == "turn" {
				turns++
			}
		}
		return turns == 2
	})
	var servers []otlptest.Span
	for _, sp := range spans {
		if sp.Kind == tracepb.Span_SPAN_KIND_SERVER {
			servers = append(servers, sp)
		}
	}
	require.Len(t, servers, 2, "one server span per API request; none for the probe")
	joined, fresh := servers[0], servers[1]
	if joined.TraceID != callerTrace {
		joined, fresh = fresh, joined
	}
	assert.Equal(t, "POST /v1/chat/completions", joined.Name)
	assert.Equal(t, "/v1/chat/completions", joined.Attrs["http.route"])
	assert.Equal(t, callerTrace, joined.TraceID, "the caller's trace is joined")
	assert.Equal(t, callerSpan, joined.ParentID, "under the caller's span")
	assert.Empty(t, fresh.ParentID, "without a traceparent the request starts its own trace")
	assert.NotEqual(t, callerTrace, fresh.TraceID)
	for _, server := range servers {
		var turn *otlptest.Span
		for i, sp := range spans {
			if sp.Name == "turn" && sp.TraceID == server.TraceID {
				turn = &spans[i]
			}
		}
		require.NotNil(t, turn, "the turn is in the request's trace")
		assert.Equal(t, server.SpanID, turn.ParentID, "the turn nests in the request")
	}
	require.Eventually(t, func() bool { return strings.Count(log.String(), `"message":"request"`) == 3 }, 5*time.Second, 10*time.Millisecond)
	for _, server := range servers {
		assert.Contains(t, log.String(), `"trace_id":"`+server.TraceID+`"`, "the access log names the trace")
	}
}

func TestAccessLogNamesAnIncomingTraceWithoutTracing(t *testing.T) {
	var log lockedBuffer
	ts := serve(t, offline, Options{Log: zerolog.New(&log)})
	req, err := http.NewRequest(http.MethodGet, ts.URL+"/v1/models", nil)
	require.NoError(t, err)
	req.Header.Set("traceparent", "00-"+callerTrace+"-"+callerSpan+"-01")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	require.Eventually(t, func() bool { return strings.Contains(log.String(), `"trace_id":"`+callerTrace+`"`) }, 5*time.Second, 10*time.Millisecond)
}
