package outbound

import (
	"net/http"

	"go.opentelemetry.io/otel/propagation"
)

// carryTrace sends the trace a call belongs to with it, so a model or
// guard server that traces joins the turn's trace under the span that
// made the call. A traceparent the caller set is kept; a context without
// a span adds none (TraceContext is stateless, nothing global is read).
func carryTrace(r *http.Request) {
	if r.Header.Get("traceparent") == "" {
		propagation.TraceContext{}.Inject(r.Context(), propagation.HeaderCarrier(r.Header))
	}
}
