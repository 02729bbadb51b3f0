package models

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"syscall"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/outbound"
)

// CallError is a model call that failed for good, its retries spent: the
// error a node returns to end the turn. Its Failure says which node, which
// host and what class of fault, for every surface to report it as one.
type CallError struct {
	contracts.Failure
	Err error
}

func (e *CallError) Error() string {
	at := ""
	if e.Host != "" {
		at = " at " + e.Host
	}
	return fmt.Sprintf("%s: the model%s failed (%s): %v", e.Node, at, e.Cause, e.Err)
}

func (e *CallError) Unwrap() error { return e.Err }

// FailureOf is the failure an error carries, if a model call ended a turn.
func FailureOf(err error) (contracts.Failure, bool) {
	var ce *CallError
	if errors.As(err, &ce) {
		return ce.Failure, true
	}
	return contracts.Failure{}, false
}

// Hosted is a model that talks to a server, and says which one (host and
// port, never a key), so that a failure can name it.
type Hosted interface {
	Host() string
}

// StatusError is an error that carries the HTTP status a server answered.
type StatusError interface {
	error
	HTTPStatus() int
}

// ErrStreamCut marks a reply stream that broke or ended before it said why
// it finished; providers make their own errors match it (errors.Is).
var ErrStreamCut = errors.New("stream cut before finish_reason")

// ErrNoReply is a call that ended without an error and without a message.
var ErrNoReply = errors.New("the model returned no message")

// Failed classes err, the end of a call node made to m, as a CallError.
func Failed(node string, m any, err error) *CallError {
	f := contracts.Failure{Node: node, Service: "model", Message: err.Error()}
	if h, ok := m.(Hosted); ok {
		f.Host = h.Host()
	}
	f.Cause, f.Status = Classify(err)
	return &CallError{Failure: f, Err: err}
}

// Classify is the class of a failed call's error, and the HTTP status the
// server last answered (0 when none did).
func Classify(err error) (contracts.FailureCause, int) {
	var se StatusError
	if errors.As(err, &se) {
		switch s := se.HTTPStatus(); {
		case s == 429:
			return contracts.CauseRateLimited, s
		case s >= 500:
			return contracts.CauseUpstream, s
		default:
			return contracts.CauseRejected, s
		}
	}
	var dns *net.DNSError
	var op *net.OpError
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, outbound.ErrIdle), errors.Is(err, context.DeadlineExceeded):
		return contracts.CauseTimeout, 0
	case errors.As(err, &dns), errors.Is(err, syscall.ECONNREFUSED), errors.As(err, &op) && op.Op == "dial":
		return contracts.CauseConnect, 0
	case errors.Is(err, ErrStreamCut):
		return contracts.CauseStreamCut, 0
	case errors.As(err, &syntax), errors.As(err, &typ), strings.Contains(err.Error(), "empty choices"),
		strings.Contains(err.Error(), "choice with index 0 not found"), errors.Is(err, ErrNoReply):
		return contracts.CauseMalformed, 0
	case errors.Is(err, syscall.ECONNRESET), isURLError(err):
		return contracts.CauseConnect, 0 // reset or closed before any reply: the server went away
	}
	return contracts.CauseUpstream, 0
}

// isURLError says the HTTP client itself failed (no reply was read).
func isURLError(err error) bool {
	var u *url.Error
	return errors.As(err, &u)
}
