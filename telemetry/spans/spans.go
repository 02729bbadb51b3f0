// Package spans holds what every traced part of sgrgraph shares: the
// eino callback handler that gives model and tool calls their spans
// (callbacks.go), the recording of an error on a span, and the trace ids
// in log lines. It needs only the OpenTelemetry API, never the SDK or an
// exporter, so a library that traces stays light; package telemetry sets
// the SDK up.
package spans

import (
	"context"
	"errors"
	"fmt"

	"github.com/rs/zerolog"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// Options say what span attributes may hold.
type Options struct {
	// RecordContent records the messages sent to and received from a
	// model, and tool arguments and results. Off by default: they hold
	// what users typed.
	RecordContent bool
	// Mask is applied to every free text written to a span (contents,
	// error messages, queries); nil writes the text as it is.
	Mask func(string) string
}

// Text is s as a span may hold it: masked when a Mask is set.
func (o Options) Text(s string) string {
	if o.Mask == nil {
		return s
	}
	return o.Mask(s)
}

// Fail marks span as failed with err: the status, error.type and an
// "exception" event, as the OpenTelemetry conventions ask. The message
// goes through o.Mask first, which span.RecordError could not do.
func (o Options) Fail(span trace.Span, err error) {
	if err == nil || !span.IsRecording() {
		return
	}
	msg := o.Text(err.Error())
	span.SetStatus(codes.Error, msg)
	span.SetAttributes(attribute.String("error.type", ErrorType(err)))
	span.AddEvent("exception", trace.WithAttributes(
		attribute.String("exception.type", fmt.Sprintf("%T", err)),
		attribute.String("exception.message", msg)))
}

// ErrorType names an error for error.type: a timeout and a cancellation
// by name, anything else by its Go type, which is low in cardinality.
func ErrorType(err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, context.Canceled):
		return "canceled"
	}
	return fmt.Sprintf("%T", err)
}

// WithLogIDs returns ctx with its zerolog logger (zerolog.Ctx) carrying
// trace_id and span_id of the span in ctx, so a log line can be found
// from its trace and back. A disabled logger or a context without a
// sampled span is returned as it is: nothing is paid when nobody looks.
func WithLogIDs(ctx context.Context) context.Context {
	sc := trace.SpanContextFromContext(ctx)
	if !sc.IsValid() {
		return ctx
	}
	l := zerolog.Ctx(ctx)
	if l.GetLevel() == zerolog.Disabled {
		return ctx
	}
	with := l.With().Str("trace_id", sc.TraceID().String()).Str("span_id", sc.SpanID().String()).Logger()
	return with.WithContext(ctx)
}
