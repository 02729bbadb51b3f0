package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
	cache := t.TempDir()
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
