// Package otlptest is an OTLP/HTTP trace receiver on a loopback port, for
// tests that check what sgrgraph exports as a collector would see it:
// decoded from the protobuf that went over the wire.
package otlptest

import (
	"compress/gzip"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	common "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// Span is one received span, flattened for assertions.
type Span struct {
	Name                      string
	TraceID, SpanID, ParentID string // hex; ParentID is "" for a root
	Kind                      tracepb.Span_SpanKind
	Attrs, Resource           map[string]any
	StatusCode                tracepb.Status_StatusCode
	StatusMessage             string
	Events                    []string
	Scope                     string
}

// Receiver collects the spans POSTed to /v1/traces.
type Receiver struct {
	// Endpoint is the base URL to give OTEL_EXPORTER_OTLP_ENDPOINT.
	Endpoint string
	mu       sync.Mutex
	spans    []Span
}

// New starts a receiver that stops when the test ends.
func New(t testing.TB) *Receiver {
	r := &Receiver{}
	srv := httptest.NewServer(http.HandlerFunc(r.export))
	t.Cleanup(srv.Close)
	r.Endpoint = srv.URL
	return r
}

func (r *Receiver) export(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodPost || req.URL.Path != "/v1/traces" {
		http.Error(w, "POST /v1/traces only", http.StatusNotFound)
		return
	}
	var body io.Reader = req.Body
	if req.Header.Get("Content-Encoding") == "gzip" {
		gz, err := gzip.NewReader(req.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body = gz
	}
	data, err := io.ReadAll(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var in coltrace.ExportTraceServiceRequest
	if err := proto.Unmarshal(data, &in); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.Add(&in)
	out, _ := proto.Marshal(&coltrace.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(out)
}

// Add keeps the spans of one export request; a gRPC receiver calls it too.
func (r *Receiver) Add(in *coltrace.ExportTraceServiceRequest) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rs := range in.GetResourceSpans() {
		res := attrs(rs.GetResource().GetAttributes())
		for _, ss := range rs.GetScopeSpans() {
			for _, s := range ss.GetSpans() {
				sp := Span{Name: s.GetName(), TraceID: hex.EncodeToString(s.GetTraceId()), SpanID: hex.EncodeToString(s.GetSpanId()),
					ParentID: hex.EncodeToString(s.GetParentSpanId()), Kind: s.GetKind(), Attrs: attrs(s.GetAttributes()), Resource: res,
					StatusCode: s.GetStatus().GetCode(), StatusMessage: s.GetStatus().GetMessage(), Scope: ss.GetScope().GetName()}
				for _, e := range s.GetEvents() {
					sp.Events = append(sp.Events, e.GetName())
				}
				r.spans = append(r.spans, sp)
			}
		}
	}
}

// Spans are the spans received so far, in arrival order.
func (r *Receiver) Spans() []Span {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Span(nil), r.spans...)
}

// Wait returns the spans once done says they are all there, or fails the
// test after timeout: spans arrive in batches, and a streamed model
// call's span ends when its stream has been read.
func (r *Receiver) Wait(t testing.TB, timeout time.Duration, done func([]Span) bool) []Span {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		spans := r.Spans()
		if done(spans) {
			return spans
		}
		if time.Now().After(deadline) {
			t.Fatalf("otlptest: the spans expected did not arrive within %s; got %d: %v", timeout, len(spans), Names(spans))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Names are the spans' names.
func Names(spans []Span) []string {
	out := make([]string, len(spans))
	for i, s := range spans {
		out[i] = s.Name
	}
	return out
}

// Find is the first span of that name, or nil.
func Find(spans []Span, name string) *Span {
	for i := range spans {
		if spans[i].Name == name {
			return &spans[i]
		}
	}
	return nil
}

func attrs(kvs []*common.KeyValue) map[string]any {
	out := make(map[string]any, len(kvs))
	for _, kv := range kvs {
		out[kv.GetKey()] = value(kv.GetValue())
	}
	return out
}

func value(v *common.AnyValue) any {
	switch x := v.GetValue().(type) {
	case *common.AnyValue_StringValue:
		return x.StringValue
	case *common.AnyValue_IntValue:
		return x.IntValue
	case *common.AnyValue_DoubleValue:
		return x.DoubleValue
	case *common.AnyValue_BoolValue:
		return x.BoolValue
	case *common.AnyValue_ArrayValue:
		var out []any
		for _, e := range x.ArrayValue.GetValues() {
			out = append(out, value(e))
		}
		return out
	}
	return nil
}
