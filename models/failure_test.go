package models

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/outbound"
)

type statusDouble int

func (s statusDouble) Error() string   { return fmt.Sprintf("status %d", int(s)) }
func (s statusDouble) HTTPStatus() int { return int(s) }

type hostDouble struct{}

func (hostDouble) Host() string { return "vllm.internal:8000" }

func TestClassify(t *testing.T) {
	dial := &url.Error{Op: "Post", URL: "http://x/v1", Err: &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}}
	tests := []struct {
		name   string
		err    error
		cause  contracts.FailureCause
		status int
	}{
		{"connection refused", dial, contracts.CauseConnect, 0},
		{"unknown host", &net.DNSError{Err: "no such host", Name: "vllm"}, contracts.CauseConnect, 0},
		{"reset before a reply", fmt.Errorf("read: %w", syscall.ECONNRESET), contracts.CauseConnect, 0},
		{"the call's time ran out", fmt.Errorf("post: %w", context.DeadlineExceeded), contracts.CauseTimeout, 0},
		{"a stream that went quiet", fmt.Errorf("recv: %w", outbound.ErrIdle), contracts.CauseTimeout, 0},
		{"429 on every try", fmt.Errorf("create: %w", statusDouble(429)), contracts.CauseRateLimited, 429},
		{"503 on every try", fmt.Errorf("create: %w", statusDouble(503)), contracts.CauseUpstream, 503},
		{"401: a bad key", statusDouble(401), contracts.CauseRejected, 401},
		{"404: an unknown model", statusDouble(404), contracts.CauseRejected, 404},
		{"a cut stream", fmt.Errorf("openai model: %w", ErrStreamCut), contracts.CauseStreamCut, 0},
		{"a body that is not JSON", &json.SyntaxError{Offset: 1}, contracts.CauseMalformed, 0},
		{"no choices", errors.New("received empty choices from OpenAI API response"), contracts.CauseMalformed, 0},
		{"no message", ErrNoReply, contracts.CauseMalformed, 0},
		{"anything else is the server's", errors.New("something odd"), contracts.CauseUpstream, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cause, status := Classify(tc.err)
			assert.Equal(t, tc.cause, cause)
			assert.Equal(t, tc.status, status)
		})
	}
}

func TestFailedNamesNodeAndHost(t *testing.T) {
	err := fmt.Errorf("graph sgrgraph: %w", Failed("sgr_plan", hostDouble{}, statusDouble(502)))
	f, ok := FailureOf(err)
	assert.True(t, ok)
	assert.Equal(t, contracts.Failure{Node: "sgr_plan", Service: "model", Host: "vllm.internal:8000", Cause: contracts.CauseUpstream,
		Status: 502, Message: "status 502"}, f)
	assert.Contains(t, err.Error(), "sgr_plan: the model at vllm.internal:8000 failed (upstream_error): status 502")
	_, ok = FailureOf(errors.New("plain"))
	assert.False(t, ok)
}
