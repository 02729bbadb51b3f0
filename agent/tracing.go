package agent

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/graph"
	"github.com/sgrgraph/sgrgraph/telemetry/spans"
)

// tracerName is the instrumentation scope of the agent's own spans.
const tracerName = "github.com/sgrgraph/sgrgraph/agent"

// tracing is what an agent built with Options.TracerProvider traces with;
// nil when it was built without one, and then no span is made anywhere.
type tracing struct {
	tp     trace.TracerProvider
	tracer trace.Tracer
	o      spans.Options
}

func newTracing(tp trace.TracerProvider, recordContent bool) *tracing {
	if tp == nil {
		return nil
	}
	return &tracing{tp: tp, tracer: tp.Tracer(tracerName), o: spans.Options{RecordContent: recordContent, Mask: MaskText}}
}

// compileOptions trace the graph's nodes and calls. The middleware comes
// before instrument, so the node's log lines carry its span's ids.
func (t *tracing) compileOptions() []graph.CompileOption {
	if t == nil {
		return nil
	}
	return []graph.CompileOption{graph.WithTracing(t.tp, graph.TraceContent(t.o.RecordContent), graph.TraceMask(t.o.Mask)),
		graph.WithMiddleware(annotate)}
}

// annotate adds the turn's retry count to the node's span (graph.WithTracing
// made it) and the span's ids to the node's logger.
func annotate(_ string, next graph.NodeFunc[State]) graph.NodeFunc[State] {
	return func(ctx context.Context, s State) (State, error) {
		span := trace.SpanFromContext(ctx)
		if !span.IsRecording() {
			return next(ctx, s)
		}
		out, err := next(spans.WithLogIDs(ctx), s)
		if out != nil {
			span.SetAttributes(attribute.Int("sgrgraph.retry", out.RetryCount))
		}
		return out, err
	}
}

// startTurn starts the turn's span: the root of its trace unless ctx
// carries one (a server request, a caller's own).
func (t *tracing) startTurn(ctx context.Context, turn Turn) (context.Context, trace.Span) {
	if t == nil {
		return ctx, nil
	}
	attrs := []attribute.KeyValue{attribute.String("sgrgraph.session", t.o.Text(turn.SessionID)),
		attribute.String("gen_ai.conversation.id", t.o.Text(turn.SessionID))}
	if turn.Thread != "" {
		attrs = append(attrs, attribute.String("sgrgraph.thread", t.o.Text(turn.Thread)))
	}
	ctx, span := t.tracer.Start(ctx, "turn", trace.WithAttributes(attrs...))
	return spans.WithLogIDs(ctx), span
}

// endTurn records how the turn ended: its number, action and verdict, or
// its error.
func (t *tracing) endTurn(span trace.Span, s *contracts.ChatState, err error) {
	if span == nil {
		return
	}
	defer span.End()
	if s != nil {
		attrs := []attribute.KeyValue{attribute.Int("sgrgraph.turn", s.Turn), attribute.String("sgrgraph.action", string(s.Action)),
			attribute.Int("sgrgraph.retry_count", s.RetryCount)}
		if s.Verdict != nil {
			attrs = append(attrs, attribute.String("sgrgraph.verdict", string(s.Verdict.Verdict)))
		}
		span.SetAttributes(attrs...)
	}
	if _, _, paused := Paused(err); paused {
		span.SetAttributes(attribute.Bool("sgrgraph.paused", true)) // waits for a person: not a failure
		return
	}
	t.o.Fail(span, err)
}
