package server

import (
	"net/http"
	"strconv"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/contracts"
)

// modelRetryAfter is the Retry-After of a 503 for a model that could not
// be reached or kept refusing: long enough for a restart or a rate window,
// short enough that a client's own retry is worth it.
const modelRetryAfter = 10

// modelFailure is the error a client is told of a turn whose model call
// failed for good: a 5xx, never an answer. The status says whose fault and
// whether to come back: 503 the model is down or rate-limited (come back
// after Retry-After), 504 it did not answer in time, 502 it answered
// something unusable. The message names no host: that stays in the log.
func modelFailure(f contracts.Failure) *apiError {
	switch f.Cause {
	case contracts.CauseConnect, contracts.CauseRateLimited:
		return &apiError{Status: http.StatusServiceUnavailable, Type: typeServer, Code: "model_unavailable", RetryAfter: modelRetryAfter,
			Message: "the assistant's model service is unavailable (" + string(f.Cause) + "); try again in " + strconv.Itoa(modelRetryAfter) + " seconds"}
	case contracts.CauseTimeout:
		return &apiError{Status: http.StatusGatewayTimeout, Type: typeServer, Code: "model_timeout",
			Message: "the assistant's model service did not answer in time; try again later"}
	}
	return &apiError{Status: http.StatusBadGateway, Type: typeServer, Code: "model_error",
		Message: "the assistant's model service answered with an error (" + string(f.Cause) + "); try again later"}
}

// logFailure writes the one line an operator gets for a turn that failed
// on its model: where and how, never a key or the user's text.
func (s *Server) logFailure(r *http.Request, f contracts.Failure, status int) {
	rec := recordOf(r)
	rec.status = status
	const most = 300
	detail := agent.MaskText(f.Message)
	if len(detail) > most {
		detail = detail[:most] + "…"
	}
	withTraceID(s.opts.Log.Error(), r).Str("request", rec.id).Str("session", rec.session).Str("node", f.Node).Str("service", f.Service).
		Str("host", f.Host).Str("cause", string(f.Cause)).Int("upstream_status", f.Status).Str("detail", detail).
		Msg("turn failed: the model could not answer")
}
