package agent_test

import (
	"context"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/config"
)

// BenchmarkTurnTracing is one offline turn without a tracer provider (what
// every command runs when no OTEL_EXPORTER_OTLP_ENDPOINT is set), with a
// no-op one, and with the SDK recording every span (exported nowhere, so
// the network is not measured):
//
//	go test ./agent/ -run '^$' -bench TurnTracing -benchtime 20x
func BenchmarkTurnTracing(b *testing.B) {
	sdk := sdktrace.NewTracerProvider(sdktrace.WithBatcher(tracetest.NewNoopExporter()))
	defer func() { _ = sdk.Shutdown(context.Background()) }()
	for _, c := range []struct {
		name string
		tp   trace.TracerProvider
	}{{"off", nil}, {"noop", noop.NewTracerProvider()}, {"sdk", sdk}} {
		b.Run(c.name, func(b *testing.B) {
			cfg := config.Default()
			cfg.KB.CacheDir = b.TempDir()
			a, err := agent.New(context.Background(), cfg, agent.Options{TracerProvider: c.tp})
			if err != nil {
				b.Fatal(err)
			}
			defer a.Close()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := a.Run(context.Background(), agent.Turn{SessionID: "bench", Message: question}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
