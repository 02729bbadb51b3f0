package server

import (
	"context"
	"net/http"
	"strings"

	"github.com/rs/zerolog"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/attribute"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// Tracing configures the server's spans.
type Tracing struct {
	// Provider, when set, gives each API request a server span that joins
	// an incoming W3C traceparent; the turn it runs nests in it. The
	// agent traces with its own agent.Options.TracerProvider.
	Provider trace.TracerProvider
	// Propagator reads the incoming trace headers; nil reads W3C trace
	// context and baggage.
	Propagator propagation.TextMapPropagator
}

// probes are requests no one wants a trace of: load balancers and
// Prometheus ask them every few seconds.
var probes = map[string]bool{"/healthz": true, "/readyz": true, "/metrics": true}

// traced wraps the whole handler in otelhttp's server span; without a
// provider the handler is returned as it is.
func (s *Server) traced(next http.Handler) http.Handler {
	t := s.opts.Tracing
	if t.Provider == nil {
		return next
	}
	prop := t.Propagator
	if prop == nil {
		prop = propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})
	}
	return otelhttp.NewHandler(next, "sgrgraph", otelhttp.WithTracerProvider(t.Provider), otelhttp.WithPropagators(prop),
		otelhttp.WithMeterProvider(metricnoop.NewMeterProvider()), // the server's metrics are Prometheus's (/metrics)
		otelhttp.WithFilter(func(r *http.Request) bool { return !probes[r.URL.Path] }),
		otelhttp.WithSpanNameFormatter(func(_ string, r *http.Request) string { return r.Method }))
}

// nameSpan names the request's span after its route ("POST
// /v1/chat/completions"), as the HTTP conventions ask, once the mux has
// matched it: otelhttp sees only its own copy of the request.
func nameSpan(r *http.Request) {
	span := trace.SpanFromContext(r.Context())
	if r.Pattern == "" || !span.IsRecording() {
		return
	}
	route := r.Pattern
	if method, path, ok := strings.Cut(route, " "); ok && method != "" {
		route = path
	}
	span.SetName(r.Method + " " + route)
	span.SetAttributes(attribute.String("http.route", route))
}

// withTraceID adds the request's trace id to a log line: the server span's,
// or without tracing the one an incoming traceparent names, so the line is
// found from the caller's trace either way.
func withTraceID(ev *zerolog.Event, r *http.Request) *zerolog.Event {
	if ev == nil { // logging is off: nothing to read
		return ev
	}
	sc := trace.SpanContextFromContext(r.Context())
	if !sc.IsValid() {
		sc = trace.SpanContextFromContext(propagation.TraceContext{}.Extract(context.Background(), propagation.HeaderCarrier(r.Header)))
	}
	if !sc.IsValid() {
		return ev
	}
	return ev.Str("trace_id", sc.TraceID().String())
}
