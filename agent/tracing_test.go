package agent_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/telemetry/otlptest"
)

// exporting is a tracer provider that sends its spans over OTLP/HTTP to a
// loopback receiver; flush exports what has ended.
func exporting(t *testing.T) (*sdktrace.TracerProvider, *otlptest.Receiver) {
	t.Helper()
	r := otlptest.New(t)
	exp, err := otlptracehttp.New(context.Background(), otlptracehttp.WithEndpointURL(r.Endpoint+"/v1/traces"))
	require.NoError(t, err)
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	return tp, r
}

// turnSpans waits for the spans of one finished turn: its root, and every
// streamed model call's span, which ends with its stream.
func turnSpans(t *testing.T, tp *sdktrace.TracerProvider, r *otlptest.Receiver) []otlptest.Span {
	t.Helper()
	return r.Wait(t, 10*time.Second, func(s []otlptest.Span) bool {
		_ = tp.ForceFlush(context.Background())
		chats, models := 0, 0
		for _, sp := range s {
			switch sp.Name {
			case "chat":
				chats++
			case "sgr_plan", "agent_model":
				models++
			}
		}
		return otlptest.Find(s, "turn") != nil && chats >= models
	})
}

const personal = "My e-mail is ivan.petrov@example.com. How do I configure the safety guard?"

func TestTurnSpansOverOTLP(t *testing.T) {
	tp, r := exporting(t)
	a := newAgent(t, agent.Options{TracerProvider: tp}, func(c *config.Config) { c.Telemetry.RecordContent = true })
	s, err := a.RunState(context.Background(), agent.Turn{SessionID: "s-1", Message: personal})
	require.NoError(t, err)
	spans := turnSpans(t, tp, r)
	byID := map[string]otlptest.Span{}
	for _, sp := range spans {
		byID[sp.SpanID] = sp
	}
	parent := func(sp otlptest.Span) string { return byID[sp.ParentID].Name }

	turn := otlptest.Find(spans, "turn")
	require.NotNil(t, turn)
	assert.Empty(t, turn.ParentID, "the turn is the root")
	assert.Equal(t, int64(1), turn.Attrs["sgrgraph.turn"])
	assert.Equal(t, string(s.Action), turn.Attrs["sgrgraph.action"])
	assert.Equal(t, string(s.Verdict.Verdict), turn.Attrs["sgrgraph.verdict"])
	assert.Equal(t, "s-1", turn.Attrs["sgrgraph.session"])
	for _, sp := range spans {
		assert.Equal(t, turn.TraceID, sp.TraceID, "one trace per turn: %s", sp.Name)
	}

	for _, n := range []string{"guardian_verify", "sgr_plan", "policy_check", "inject_synthetic", "react_agent", "evidence_check", "contract_check"} {
		sp := otlptest.Find(spans, n)
		require.NotNil(t, sp, n)
		assert.Equal(t, "turn", parent(*sp), n)
		assert.Equal(t, int64(1), sp.Attrs["sgrgraph.node.attempt"], n)
		assert.Equal(t, int64(0), sp.Attrs["sgrgraph.retry"], n)
	}
	for _, n := range []string{"agent_model", "call_tool", "agent_tools"} {
		sp := otlptest.Find(spans, n)
		require.NotNil(t, sp, n)
		assert.Equal(t, "react_agent", parent(*sp), "%s nests in the loop", n)
	}
	guardian := otlptest.Find(spans, "guardian_verify")
	assert.Equal(t, "DT-001", guardian.Attrs["sgrgraph.decision.table"])
	assert.Contains(t, guardian.Attrs["sgrgraph.decision.outputs"], "decision=Continue")
	assert.Contains(t, guardian.Events, "decision")
	assert.Equal(t, "DT-005", otlptest.Find(spans, "contract_check").Attrs["sgrgraph.decision.table"])
	assert.NotContains(t, otlptest.Find(spans, "react_agent").Attrs, "sgrgraph.decision.table", "the loop's decisions are its nodes'")
	assert.Equal(t, "DT-003", otlptest.Find(spans, "agent_model").Attrs["sgrgraph.decision.table"])

	guard := otlptest.Find(spans, "guard.classify")
	require.NotNil(t, guard)
	assert.Equal(t, "guardian_verify", parent(*guard))
	assert.Equal(t, "Safe", guard.Attrs["sgrgraph.guard.level"])

	tool := otlptest.Find(spans, "execute_tool search_kb")
	require.NotNil(t, tool)
	assert.Equal(t, "call_tool", parent(*tool))
	assert.Equal(t, "execute_tool", tool.Attrs["gen_ai.operation.name"])
	search := otlptest.Find(spans, "kb.search")
	require.NotNil(t, search)
	assert.Equal(t, "execute_tool search_kb", parent(*search))
	assert.Greater(t, search.Attrs["sgrgraph.kb.hits"], int64(0))
	assert.Greater(t, search.Attrs["sgrgraph.kb.top_score"], 0.0)
	assert.NotEmpty(t, search.Attrs["sgrgraph.kb.query"])

	var chats int
	for _, sp := range spans {
		if sp.Name != "chat" {
			continue
		}
		chats++
		assert.Contains(t, []string{"sgr_plan", "agent_model"}, parent(sp))
		assert.Equal(t, "chat", sp.Attrs["gen_ai.operation.name"])
		assert.Equal(t, "offline", sp.Attrs["gen_ai.provider.name"])
		assert.Contains(t, sp.Attrs, "gen_ai.usage.input_tokens")
		assert.Contains(t, sp.Attrs, "gen_ai.usage.output_tokens")
		assert.Contains(t, sp.Attrs, "gen_ai.response.finish_reasons")
		assert.Contains(t, sp.Attrs, "gen_ai.input.messages", "record_content is on")
	}
	assert.GreaterOrEqual(t, chats, 2, "the plan and the answer")
	for _, sp := range spans {
		for k, v := range sp.Attrs {
			assert.NotContains(t, fmt.Sprint(v), "ivan.petrov@example.com", "%s %s: personal data is masked", sp.Name, k)
		}
	}
}

func TestTurnSpansCarryNoContentByDefault(t *testing.T) {
	tp, r := exporting(t)
	a := newAgent(t, agent.Options{TracerProvider: tp})
	_, err := a.RunState(context.Background(), agent.Turn{SessionID: "s-2", Message: personal})
	require.NoError(t, err)
	for _, sp := range turnSpans(t, tp, r) {
		for k, v := range sp.Attrs {
			assert.False(t, strings.HasPrefix(k, "gen_ai.input") || strings.HasPrefix(k, "gen_ai.output") || k == "gen_ai.tool.call.arguments",
				"%s carries %s", sp.Name, k)
			assert.NotContains(t, fmt.Sprint(v), "petrov", "%s %s", sp.Name, k)
		}
	}
}
