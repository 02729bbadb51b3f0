package graph

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/sgrgraph/sgrgraph/models"
	"github.com/sgrgraph/sgrgraph/tables"
)

// recorded is a tracer provider that keeps its spans in memory.
func recorded(t *testing.T) (*sdktrace.TracerProvider, *tracetest.InMemoryExporter) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	return tp, exp
}

// byName indexes the ended spans by name; a name met twice keeps the last.
func byName(exp *tracetest.InMemoryExporter) map[string]tracetest.SpanStub {
	out := map[string]tracetest.SpanStub{}
	for _, s := range exp.GetSpans() {
		out[s.Name] = s
	}
	return out
}

func attr(s tracetest.SpanStub, key string) attribute.Value {
	for _, kv := range s.Attributes {
		if string(kv.Key) == key {
			return kv.Value
		}
	}
	return attribute.Value{}
}

func TestTracingNodesDecisionsAndSubgraph(t *testing.T) {
	tp, exp := recorded(t)
	tbl, err := tables.New(tables.Table{ID: "DT-T", Name: "t", Inputs: []tables.Column{{Name: "n", Type: tables.TypeNumber}},
		Outputs: []tables.Column{{Name: "go", Type: tables.TypeString}},
		Rules:   []tables.Rule{{Inputs: []string{"> 0"}, Outputs: []string{"big"}}, {Inputs: []string{"-"}, Outputs: []string{"small"}}}})
	require.NoError(t, err)
	decide := func(_ context.Context, s *state) (*state, error) {
		res, err := tbl.Evaluate(map[string]any{"n": s.Count})
		s.Record(res)
		return s, err
	}
	sub, err := New[*state]("inner").AddNode("leaf", visit("leaf")).AddEdge(START, "leaf").AddEdge("leaf", END).
		Compile(context.Background(), WithTracing(tp))
	require.NoError(t, err)
	r, err := New[*state]("outer").AddNode("d", decide).AddNode("sub", Subgraph(sub)).
		AddEdge(START, "d").AddConditionalEdges("d", ByTable[*state](tbl, "go"), map[string]string{"big": "sub", "small": END}).
		AddEdge("sub", END).Compile(context.Background(), WithTracing(tp))
	require.NoError(t, err)
	_, err = r.Invoke(context.Background(), &state{Count: 2})
	require.NoError(t, err)

	spans := byName(exp)
	require.Len(t, exp.GetSpans(), 4, "outer run, d, sub, leaf: the subgraph adds no run span of its own")
	run, d, subSpan, leaf := spans["outer"], spans["d"], spans["sub"], spans["leaf"]
	assert.False(t, run.Parent.IsValid(), "a run under no span is the root")
	assert.Equal(t, run.SpanContext.SpanID(), d.Parent.SpanID())
	assert.Equal(t, run.SpanContext.SpanID(), subSpan.Parent.SpanID())
	assert.Equal(t, subSpan.SpanContext.SpanID(), leaf.Parent.SpanID(), "a subgraph's nodes nest in the node that runs it")
	assert.Equal(t, "DT-T", attr(d, "sgrgraph.decision.table").AsString())
	assert.Equal(t, int64(1), attr(d, "sgrgraph.decision.rule").AsInt64())
	assert.Equal(t, []string{"go=big"}, attr(d, "sgrgraph.decision.outputs").AsStringSlice())
	assert.Equal(t, int64(1), attr(d, "sgrgraph.node.attempt").AsInt64())
	assert.Equal(t, "inner", attr(leaf, "sgrgraph.graph").AsString())
	require.Len(t, d.Events, 1)
	assert.Equal(t, "decision", d.Events[0].Name)
}

func TestTracingRetriesAndErrors(t *testing.T) {
	tp, exp := recorded(t)
	tries := 0
	flaky := func(_ context.Context, s *state) (*state, error) {
		tries++
		if tries < 2 {
			return s, errors.New("card 4111 1111 1111 1111 declined")
		}
		return s, nil
	}
	mask := func(s string) string { return strings.ReplaceAll(s, "4111 1111 1111 1111", "41**11") }
	r, err := New[*state]("g").AddNode("flaky", flaky, WithRetry(RetryPolicy{MaxAttempts: 2, InitialInterval: time.Millisecond})).
		AddNode("bad", func(_ context.Context, s *state) (*state, error) { return s, errors.New("broken") }).
		AddEdge(START, "flaky").AddEdge("flaky", "bad").AddEdge("bad", END).
		Compile(context.Background(), WithTracing(tp, TraceMask(mask)))
	require.NoError(t, err)
	_, err = r.Invoke(context.Background(), &state{})
	require.Error(t, err)

	var attempts []int64
	for _, s := range exp.GetSpans() {
		if s.Name == "flaky" {
			attempts = append(attempts, attr(s, "sgrgraph.node.attempt").AsInt64())
			if attr(s, "sgrgraph.node.attempt").AsInt64() == 1 {
				assert.Equal(t, codes.Error, s.Status.Code)
				assert.Equal(t, "card 41**11 declined", s.Status.Description, "error text is masked")
				require.Len(t, s.Events, 1)
				assert.Equal(t, "exception", s.Events[0].Name)
			}
		}
	}
	assert.Equal(t, []int64{1, 2}, attempts, "one span per attempt")
	spans := byName(exp)
	assert.Equal(t, codes.Error, spans["bad"].Status.Code)
	assert.Equal(t, codes.Error, spans["g"].Status.Code, "the run's span fails with its node")
}

func TestTracingModelCallsThroughCallbacks(t *testing.T) {
	tp, exp := recorded(t)
	m := models.New("Scripted", func(context.Context, []*schema.Message, *model.Options) ([]*schema.Message, error) {
		return []*schema.Message{{Role: schema.Assistant, Content: "hello",
			ResponseMeta: &schema.ResponseMeta{FinishReason: "stop", Usage: &schema.TokenUsage{PromptTokens: 7, CompletionTokens: 2}}}}, nil
	})
	call := func(stream bool) NodeFunc[*state] {
		return func(ctx context.Context, s *state) (*state, error) {
			in := []*schema.Message{schema.UserMessage("my mail is a@b.c")}
			if !stream {
				_, err := m.Generate(ctx, in)
				return s, err
			}
			sr, err := m.Stream(ctx, in)
			if err != nil {
				return s, err
			}
			defer sr.Close()
			for {
				if _, err := sr.Recv(); err != nil {
					return s, nil
				}
			}
		}
	}
	mask := func(s string) string { return strings.ReplaceAll(s, "a@b.c", "***") }
	r, err := New[*state]("g").AddNode("gen", call(false)).AddNode("stream", call(true)).
		AddEdge(START, "gen").AddEdge("gen", "stream").AddEdge("stream", END).
		Compile(context.Background(), WithTracing(tp, TraceContent(true), TraceMask(mask)))
	require.NoError(t, err)
	_, err = r.Invoke(context.Background(), &state{})
	require.NoError(t, err)
	require.Eventually(t, func() bool { return len(exp.GetSpans()) == 5 }, 5*time.Second, 5*time.Millisecond,
		"a streamed call's span ends as its stream does")

	nodes := byName(exp)
	for _, s := range exp.GetSpans() {
		if s.Name != "chat" {
			continue
		}
		parent := s.Parent.SpanID()
		assert.True(t, parent == nodes["gen"].SpanContext.SpanID() || parent == nodes["stream"].SpanContext.SpanID(), "a model call nests in its node")
		assert.Equal(t, "chat", attr(s, "gen_ai.operation.name").AsString())
		assert.Equal(t, "scripted", attr(s, "gen_ai.provider.name").AsString())
		assert.Equal(t, "scripted", attr(s, "gen_ai.system").AsString())
		assert.Equal(t, int64(7), attr(s, "gen_ai.usage.input_tokens").AsInt64())
		assert.Equal(t, int64(2), attr(s, "gen_ai.usage.output_tokens").AsInt64())
		assert.Equal(t, []string{"stop"}, attr(s, "gen_ai.response.finish_reasons").AsStringSlice())
		assert.Contains(t, attr(s, "gen_ai.input.messages").AsString(), `"content":"my mail is ***"`)
		assert.Contains(t, attr(s, "gen_ai.output.messages").AsString(), `"content":"hello"`)
	}
}

func TestTracingRecordsNoContentByDefault(t *testing.T) {
	tp, exp := recorded(t)
	m := models.New("Scripted", func(context.Context, []*schema.Message, *model.Options) ([]*schema.Message, error) {
		return []*schema.Message{schema.AssistantMessage("secret answer", nil)}, nil
	})
	r, err := New[*state]("g").AddNode("gen", func(ctx context.Context, s *state) (*state, error) {
		_, err := m.Generate(ctx, []*schema.Message{schema.UserMessage("secret question")})
		return s, err
	}).AddEdge(START, "gen").AddEdge("gen", END).Compile(context.Background(), WithTracing(tp))
	require.NoError(t, err)
	_, err = r.Invoke(context.Background(), &state{})
	require.NoError(t, err)
	for _, s := range exp.GetSpans() {
		for _, kv := range s.Attributes {
			assert.NotContains(t, kv.Value.Emit(), "secret", "span %s, attribute %s", s.Name, kv.Key)
		}
	}
}
