package graph

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync/atomic"

	"github.com/cloudwego/eino/callbacks"
	"github.com/cloudwego/eino/compose"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/sgrgraph/sgrgraph/tables"
	"github.com/sgrgraph/sgrgraph/telemetry/spans"
)

// tracerName is the instrumentation scope of the graph's spans.
const tracerName = "github.com/sgrgraph/sgrgraph/graph"

// TracingOption tunes WithTracing.
type TracingOption func(*spans.Options)

// TraceContent records model messages and tool arguments and results on
// their spans. Off by default: they hold what users typed.
func TraceContent(record bool) TracingOption {
	return func(o *spans.Options) { o.RecordContent = record }
}

// TraceMask is applied to every free text a span records (contents,
// error messages); give it the masking of personal data you use.
func TraceMask(mask func(string) string) TracingOption {
	return func(o *spans.Options) { o.Mask = mask }
}

// WithTracing gives every node of the graph a span per attempt, named
// after the node, and every eino chat model and tool called inside a node
// a span of the GenAI conventions (spans.Callbacks). A run under no span
// of its own gets one named after the graph, so each run is one trace; a
// subgraph's nodes nest in the node that runs it. Without WithTracing a
// graph makes no span and pays nothing.
func WithTracing(tp trace.TracerProvider, opts ...TracingOption) CompileOption {
	return func(o *compileOptions) {
		if tp == nil {
			o.tracing = nil
			return
		}
		t := &tracing{tracer: tp.Tracer(tracerName)}
		for _, opt := range opts {
			opt(&t.o)
		}
		t.calls = spans.Callbacks(t.tracer, t.o)
		o.tracing = t
	}
}

// tracing is a compiled graph's tracer and what it records.
type tracing struct {
	tracer trace.Tracer
	o      spans.Options
	calls  callbacks.Handler
}

// handlerKey marks a context whose run already reports to a tracing
// handler: a subgraph adds none of its own, or each call would have two
// spans.
type handlerKey struct{}

// begin starts a run's span when ctx has none, and adds the callbacks
// handler to the run's options unless an outer run has.
func (t *tracing) begin(ctx context.Context, graph string, eo []compose.Option) (context.Context, trace.Span, []compose.Option) {
	var span trace.Span
	if !trace.SpanContextFromContext(ctx).IsValid() {
		ctx, span = t.tracer.Start(ctx, graph, trace.WithAttributes(attribute.String("sgrgraph.graph", graph)))
	}
	if ctx.Value(handlerKey{}) != nil {
		return ctx, span, eo
	}
	return context.WithValue(ctx, handlerKey{}, true), span, append(eo, compose.WithCallbacks(t.calls))
}

// end ends a run's span, if it started one.
func (t *tracing) end(span trace.Span, err error) {
	if span == nil {
		return
	}
	if failed(err) {
		t.o.Fail(span, err)
	}
	span.End()
}

// failed says whether err is a failure, not a pause for input or a stop
// the caller asked for.
func failed(err error) bool {
	if err == nil || IsInterrupt(err) {
		return false
	}
	var stop interface{ stopBefore() }
	return !errors.As(err, &stop)
}

func (stopped[S]) stopBefore() {}

// tracedNode runs one attempt of a node in a span named after it, with
// the attempt and the decisions the node recorded.
func tracedNode[S any](t *tracing, graph, name string, fn NodeFunc[S]) NodeFunc[S] {
	return func(ctx context.Context, s S) (S, error) {
		if outer, ok := ctx.Value(nodeSpanKey{}).(*nodeSpan); ok {
			outer.nested.Store(true)
		}
		run := &nodeSpan{}
		ctx, span := t.tracer.Start(context.WithValue(ctx, nodeSpanKey{}, run), name, trace.WithAttributes(attribute.String("sgrgraph.graph", graph),
			attribute.String("sgrgraph.node", name), attribute.Int("sgrgraph.node.attempt", Attempt(ctx))))
		defer span.End()
		before := len(decisionsOf(s))
		out, err := fn(ctx, s)
		switch {
		case IsInterrupt(err):
			span.SetAttributes(attribute.Bool("sgrgraph.node.interrupted", true))
		case failed(err):
			t.o.Fail(span, err)
		case err == nil && !run.nested.Load(): // a subgraph's decisions are its nodes' to show
			t.decisions(span, decisionsOf(out), before)
		}
		return out, err
	}
}

// nodeSpan is one traced node run; nested says traced nodes ran inside it.
type nodeSpan struct{ nested atomic.Bool }

type nodeSpanKey struct{}

// decisionsOf is what a state embedding tables.Decisions recorded.
func decisionsOf[S any](s S) []tables.Result {
	if d, ok := any(s).(interface{ Recorded() []tables.Result }); ok {
		return d.Recorded()
	}
	return nil
}

// decisions writes the decisions recorded after the first before: the
// last as attributes, each as a "decision" event.
func (t *tracing) decisions(span trace.Span, made []tables.Result, before int) {
	if before > len(made) {
		return // a state that dropped decisions: nothing to say
	}
	for _, d := range made[before:] {
		attrs := []attribute.KeyValue{attribute.String("sgrgraph.decision.table", d.Table),
			attribute.Int("sgrgraph.decision.rule", d.Rule), attribute.StringSlice("sgrgraph.decision.outputs", t.outputs(d))}
		span.AddEvent("decision", trace.WithAttributes(attrs...))
		span.SetAttributes(attrs...)
	}
}

// outputs are a decision's outputs as sorted "name=value" pairs.
func (t *tracing) outputs(d tables.Result) []string {
	out := make([]string, 0, len(d.Outputs))
	for _, k := range slices.Sorted(maps.Keys(d.Outputs)) {
		out = append(out, fmt.Sprintf("%s=%s", k, t.o.Text(d.Outputs[k])))
	}
	return out
}
