package main

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/sgrtest/servers"
	"github.com/sgrgraph/sgrgraph/telemetry/otlptest"
)

// otelEnv points the standard variables at a loopback receiver, and
// clears those the machine may have set.
func otelEnv(t *testing.T) *otlptest.Receiver {
	r := otlptest.New(t)
	for _, v := range []string{"OTEL_SDK_DISABLED", "OTEL_TRACES_EXPORTER", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_PROTOCOL",
		"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_SERVICE_NAME"} {
		t.Setenv(v, "")
	}
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", r.Endpoint)
	t.Setenv("OTEL_RESOURCE_ATTRIBUTES", "deployment.environment=ci")
	return r
}

func TestAskExportsItsTurnWhenOTELIsSet(t *testing.T) {
	r := otelEnv(t)
	cache := docsCache
	_, stderr, err := run(t, "--log-level", "debug", "ask", "--cache-dir", cache, "How do I configure the safety guard?")
	require.NoError(t, err)
	spans := r.Spans() // the command flushed them before returning
	turn := otlptest.Find(spans, "turn")
	require.NotNil(t, turn, "got %v", otlptest.Names(spans))
	assert.Empty(t, turn.ParentID)
	assert.Equal(t, "sgrgraph", turn.Resource["service.name"])
	assert.Equal(t, "ci", turn.Resource["deployment.environment"])
	for _, n := range []string{"guardian_verify", "sgr_plan", "react_agent", "finalize"} {
		sp := otlptest.Find(spans, n)
		require.NotNil(t, sp, n)
		assert.Equal(t, turn.SpanID, sp.ParentID, n)
	}
	assert.NotNil(t, otlptest.Find(spans, "chat"), "model calls have spans")
	assert.Contains(t, stderr, "trace_id="+turn.TraceID, "the node log lines name the trace")

	t.Setenv("OTEL_SDK_DISABLED", "true")
	before := len(r.Spans())
	_, _, err = run(t, "ask", "--cache-dir", cache, "How do I configure the safety guard?")
	require.NoError(t, err)
	assert.Len(t, r.Spans(), before, "OTEL_SDK_DISABLED exports nothing")
}

func TestBadOTELSettingsStopTheCommand(t *testing.T) {
	otelEnv(t)
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json")
	_, _, err := run(t, "tables")
	assert.ErrorContains(t, err, "OTEL_EXPORTER_OTLP_PROTOCOL")
}

// turnsOf are the root turn spans among spans, each with its nodes below.
func turnsOf(t *testing.T, spans []otlptest.Span) []otlptest.Span {
	t.Helper()
	var turns []otlptest.Span
	for _, sp := range spans {
		if sp.Name == "turn" {
			turns = append(turns, sp)
		}
	}
	for _, turn := range turns {
		n := 0
		for _, sp := range spans {
			if sp.ParentID == turn.SpanID && sp.TraceID == turn.TraceID {
				n++
			}
		}
		assert.Positive(t, n, "turn %s has node spans", turn.SpanID)
	}
	return turns
}

func TestBatchExportsEachTurnWhenOTELIsSet(t *testing.T) {
	r := otelEnv(t)
	in := filepath.Join(t.TempDir(), "t.csv")
	_, _, err := run(t, "batch", "--make-example", in, "--rows", "4")
	require.NoError(t, err)
	_, _, _ = run(t, "batch", "--input", in, "--cache-dir", docsCache) // the example's empty rows fail: that is the example
	turns := turnsOf(t, r.Spans())
	assert.GreaterOrEqual(t, len(turns), 3, "a turn a row answered, each its own trace")
}

// worker: the turns it takes from the queue are traced and exported, and
// flushed when it stops.
func TestWorkerExportsItsTurnsWhenOTELIsSet(t *testing.T) {
	r := otelEnv(t)
	url := servers.Redis(t)
	ctx, cancel := context.WithCancel(context.Background())
	var out, errOut bytes.Buffer
	cmd := newRootCmd(&out, &errOut)
	cmd.SetArgs([]string{"worker", "--queue", url, "--cache-dir", docsCache, "--store", filepath.Join(t.TempDir(), "threads.db")})
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx) }()
	in := filepath.Join(t.TempDir(), "t.csv")
	_, _, err := run(t, "batch", "--make-example", in, "--rows", "3")
	require.NoError(t, err)
	_, _, _ = run(t, "batch", "--queue", url, "--input", in)
	cancel()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the worker did not stop")
	}
	assert.NotEmpty(t, turnsOf(t, r.Spans()), "the worker's turns reached the receiver: %s", errOut.String())
}
