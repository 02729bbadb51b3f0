package contracts

// ActionError is the action of a turn that failed: a service it needs (the
// model server) could not be reached or answered unusably, so there is no
// answer at all. It is not one of DT-002's routes: no table chose it, the
// turn ended before one could.
const ActionError Action = "error"

// FailureCause is the class of a failed call to another service, which
// decides how each surface reports it (serve: 503, 502 or 504).
type FailureCause string

// The causes a failed model call is classed as.
const (
	// CauseConnect: no connection (refused, unknown host, connect timeout,
	// reset before a reply). The service is down or the address is wrong.
	CauseConnect FailureCause = "connect"
	// CauseTimeout: connected, but no whole reply within the call's time
	// (model.timeout), or a stream that stopped sending (model.idle_timeout).
	CauseTimeout FailureCause = "timeout"
	// CauseRateLimited: 429 on every try.
	CauseRateLimited FailureCause = "rate_limited"
	// CauseUpstream: 5xx on every try.
	CauseUpstream FailureCause = "upstream_error"
	// CauseRejected: another 4xx (a bad key, an unknown model): a retry
	// cannot mend it, the configuration can.
	CauseRejected FailureCause = "rejected"
	// CauseStreamCut: the reply's stream broke or ended early on every try.
	CauseStreamCut FailureCause = "stream_cut"
	// CauseMalformed: a reply that is not the protocol's (bad JSON, no
	// choices, broken tool-call arguments).
	CauseMalformed FailureCause = "malformed_reply"
)

// Failure says why a turn has no answer: which node's call to which
// service failed, and how. Message is for operators' logs and results; it
// may name a host, never a key or the user's text.
type Failure struct {
	Node    string       `json:"node"`
	Service string       `json:"service"` // "model"
	Host    string       `json:"host,omitempty"`
	Cause   FailureCause `json:"cause"`
	// Status is the last HTTP status the service answered, if any.
	Status  int    `json:"status,omitempty"`
	Message string `json:"message"`
}
