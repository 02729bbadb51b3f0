// Package telemetry sets up OpenTelemetry tracing the standard way, from
// the OTEL_* environment variables, for every sgrgraph command:
//
//   - OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT
//     turns export on; with neither, nothing is exported and no tracer is
//     made, so a turn pays nothing for tracing.
//   - OTEL_EXPORTER_OTLP_TRACES_PROTOCOL or OTEL_EXPORTER_OTLP_PROTOCOL:
//     http/protobuf (the default) or grpc.
//   - OTEL_SERVICE_NAME (default "sgrgraph") and OTEL_RESOURCE_ATTRIBUTES
//     name the process; OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none
//     turn tracing off whatever else is set.
//
// The exporters and the SDK read the rest themselves (headers, timeouts,
// certificates, compression, OTEL_TRACES_SAMPLER, OTEL_BSP_*). Nothing is
// installed globally: the caller passes TracerProvider and Propagator to
// what traces (agent.Options, server.Options).
package telemetry

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// DefaultServiceName is service.name unless OTEL_SERVICE_NAME or
// OTEL_RESOURCE_ATTRIBUTES says otherwise.
const DefaultServiceName = "sgrgraph"

// ShutdownTimeout bounds the flush at exit: a collector that is down
// must not hold a command that has finished its work.
const ShutdownTimeout = 5 * time.Second

// Provider is the process's tracing: an SDK exporting over OTLP, or none.
type Provider struct {
	sdk *sdktrace.TracerProvider // nil: tracing is off
}

// Setup reads the environment and starts the exporter it asks for. A
// misspelt protocol or exporter is an error naming the variable: traces
// silently lost would be found only when needed.
func Setup(ctx context.Context, version string) (*Provider, error) {
	on, err := wanted()
	if err != nil || !on {
		return &Provider{}, err
	}
	exp, err := exporter(ctx)
	if err != nil {
		return nil, err
	}
	// The defaults first: the environment's detector comes after and wins.
	res, err := resource.New(ctx,
		resource.WithAttributes(attribute.String("service.name", DefaultServiceName), attribute.String("service.version", version)),
		resource.WithFromEnv(), resource.WithTelemetrySDK())
	if err != nil {
		return nil, fmt.Errorf("OTEL_RESOURCE_ATTRIBUTES: %w", err)
	}
	return &Provider{sdk: sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))}, nil
}

// wanted says whether the environment asks for export.
func wanted() (bool, error) {
	if strings.EqualFold(strings.TrimSpace(os.Getenv("OTEL_SDK_DISABLED")), "true") {
		return false, nil
	}
	switch e := strings.TrimSpace(os.Getenv("OTEL_TRACES_EXPORTER")); e {
	case "", "otlp":
	case "none":
		return false, nil
	default:
		return false, fmt.Errorf("OTEL_TRACES_EXPORTER=%q: sgrgraph exports traces over otlp only (or none)", e)
	}
	return env("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT") != "", nil
}

// exporter is the OTLP exporter of the protocol the environment names.
func exporter(ctx context.Context) (sdktrace.SpanExporter, error) {
	switch p := env("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"); p {
	case "", "http/protobuf":
		return otlptracehttp.New(ctx)
	case "grpc":
		return otlptracegrpc.New(ctx)
	default:
		return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_PROTOCOL=%q: use http/protobuf or grpc", p)
	}
}

// env is the first of the variables that is set, the signal's own first.
func env(names ...string) string {
	for _, n := range names {
		if v := strings.TrimSpace(os.Getenv(n)); v != "" {
			return v
		}
	}
	return ""
}

// Enabled says whether spans are exported.
func (p *Provider) Enabled() bool { return p != nil && p.sdk != nil }

// TracerProvider is the provider to pass to what traces; nil when tracing
// is off, which those parts read as "make no span at all" (cheaper than a
// no-op provider, whose spans still cost a context each).
func (p *Provider) TracerProvider() trace.TracerProvider {
	if !p.Enabled() {
		return nil
	}
	return p.sdk
}

// Propagator reads and writes W3C trace context and baggage headers.
func (p *Provider) Propagator() propagation.TextMapPropagator {
	return propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})
}

// Shutdown exports what is left and stops, within ShutdownTimeout even
// when ctx is already cancelled (an interrupted command still flushes).
func (p *Provider) Shutdown(ctx context.Context) error {
	if !p.Enabled() {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ShutdownTimeout)
	defer cancel()
	if err := p.sdk.Shutdown(ctx); err != nil {
		return fmt.Errorf("telemetry: flushing spans: %w", err)
	}
	return nil
}
