package telemetry_test

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/grpc"

	"github.com/sgrgraph/sgrgraph/telemetry"
	"github.com/sgrgraph/sgrgraph/telemetry/otlptest"
)

// clean unsets every variable Setup reads, so the machine's own
// environment does not leak into a case.
func clean(t *testing.T) {
	for _, v := range []string{"OTEL_SDK_DISABLED", "OTEL_TRACES_EXPORTER", "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
		"OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_SERVICE_NAME", "OTEL_RESOURCE_ATTRIBUTES"} {
		t.Setenv(v, "")
	}
}

func TestOffWithoutAnEndpoint(t *testing.T) {
	clean(t)
	p, err := telemetry.Setup(context.Background(), "test")
	require.NoError(t, err)
	assert.False(t, p.Enabled())
	assert.Nil(t, p.TracerProvider(), "no provider at all: a turn makes no span")
	assert.NoError(t, p.Shutdown(context.Background()))
}

func TestDisabledWinsOverAnEndpoint(t *testing.T) {
	for _, v := range []struct{ name, value string }{{"OTEL_SDK_DISABLED", "TRUE"}, {"OTEL_TRACES_EXPORTER", "none"}} {
		clean(t)
		t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1")
		t.Setenv(v.name, v.value)
		p, err := telemetry.Setup(context.Background(), "test")
		require.NoError(t, err)
		assert.False(t, p.Enabled(), v.name)
	}
}

func TestBadSettingsNameTheVariable(t *testing.T) {
	clean(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1")
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json")
	_, err := telemetry.Setup(context.Background(), "test")
	assert.ErrorContains(t, err, "OTEL_EXPORTER_OTLP_PROTOCOL")
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "")
	t.Setenv("OTEL_TRACES_EXPORTER", "zipkin")
	_, err = telemetry.Setup(context.Background(), "test")
	assert.ErrorContains(t, err, "OTEL_TRACES_EXPORTER")
}

// export makes one span through a provider Setup made, and flushes it.
func export(t *testing.T) {
	t.Helper()
	p, err := telemetry.Setup(context.Background(), "1.2.3")
	require.NoError(t, err)
	require.True(t, p.Enabled())
	_, span := p.TracerProvider().Tracer("test").Start(context.Background(), "hello")
	span.End()
	require.NoError(t, p.Shutdown(context.Background()))
}

func TestExportsOverHTTP(t *testing.T) {
	clean(t)
	r := otlptest.New(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", r.Endpoint)
	t.Setenv("OTEL_RESOURCE_ATTRIBUTES", "deployment.environment=test")
	export(t)
	spans := r.Spans()
	require.Len(t, spans, 1)
	assert.Equal(t, "hello", spans[0].Name)
	assert.Equal(t, "sgrgraph", spans[0].Resource["service.name"], "the default service name")
	assert.Equal(t, "1.2.3", spans[0].Resource["service.version"])
	assert.Equal(t, "test", spans[0].Resource["deployment.environment"])

	t.Setenv("OTEL_SERVICE_NAME", "support-bot")
	export(t)
	assert.Equal(t, "support-bot", r.Spans()[1].Resource["service.name"], "OTEL_SERVICE_NAME wins")
}

// grpcReceiver is the collector's gRPC trace service over a receiver.
type grpcReceiver struct {
	coltrace.UnimplementedTraceServiceServer
	r *otlptest.Receiver
}

func (g grpcReceiver) Export(_ context.Context, in *coltrace.ExportTraceServiceRequest) (*coltrace.ExportTraceServiceResponse, error) {
	g.r.Add(in)
	return &coltrace.ExportTraceServiceResponse{}, nil
}

func TestExportsOverGRPC(t *testing.T) {
	clean(t)
	r := otlptest.New(t)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := grpc.NewServer()
	coltrace.RegisterTraceServiceServer(srv, grpcReceiver{r: r})
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://"+lis.Addr().String())
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")
	export(t)
	spans := r.Wait(t, 5*time.Second, func(s []otlptest.Span) bool { return len(s) == 1 })
	assert.Equal(t, "hello", spans[0].Name)
}

func TestShutdownGivesUpOnADeadCollector(t *testing.T) {
	clean(t)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := lis.Addr().String()
	require.NoError(t, lis.Close()) // nothing listens there now
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://"+addr)
	t.Setenv("OTEL_EXPORTER_OTLP_TIMEOUT", "60000")
	p, err := telemetry.Setup(context.Background(), "test")
	require.NoError(t, err)
	_, span := p.TracerProvider().Tracer("test").Start(context.Background(), "lost")
	span.End()
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // an interrupted command
	start := time.Now()
	_ = p.Shutdown(ctx)
	assert.Less(t, time.Since(start), telemetry.ShutdownTimeout+2*time.Second, "the flush is bounded")
}
