package outbound

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Transport is an http.RoundTripper that retries by a Policy and adds
// fixed headers. The context of each request bounds every try and wait,
// so cancelling it stops the call at once.
type Transport struct {
	// Base makes the tries; nil is http.DefaultTransport.
	Base    http.RoundTripper
	Policy  Policy
	Service string
	// Header is added to every request (API keys, extra headers).
	Header http.Header
	// Draw picks a backoff in [0,n); nil draws at random.
	Draw func(n int64) int64
}

// RoundTrip sends req, trying again while the answer is retryable and the
// policy allows. The answer of the last try is returned as it is, so the
// caller sees the server's own error.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	ctx := req.Context()
	attempts := max(t.Policy.Attempts, 1)
	if req.Body != nil && req.GetBody == nil {
		attempts = 1 // the body cannot be sent twice
	}
	for try := 1; ; try++ {
		r, err := t.prepare(req, try)
		if err != nil {
			return nil, err
		}
		resp, err := base.RoundTrip(r)
		if err == nil && !Retryable(resp.StatusCode) {
			return resp, nil
		}
		a := Attempt{Service: t.Service, Try: try}
		if err != nil {
			a.Error = err.Error()
		} else {
			a.Status, a.Error = resp.StatusCode, resp.Status
		}
		wait, giveUp := t.wait(ctx, try, attempts, resp, err)
		if giveUp != "" {
			a.Error += "; " + giveUp
		}
		a.Retried, a.Wait = giveUp == "", wait
		record(ctx, req.URL.Redacted(), a)
		if !a.Retried {
			return resp, err
		}
		if resp != nil {
			_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
			resp.Body.Close()
		}
		if err := sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// wait decides the pause before the next try, or why there is none.
func (t *Transport) wait(ctx context.Context, try, attempts int, resp *http.Response, err error) (time.Duration, string) {
	if err != nil && ctx.Err() == nil && !retryableError(err) {
		return 0, "a retry cannot mend this"
	}
	p := t.Policy
	p.Attempts = attempts
	var asked *time.Duration
	if resp != nil {
		if after, ok := RetryAfter(resp.Header, time.Now()); ok {
			asked = &after
		}
	}
	return p.next(ctx, try, asked, t.Draw)
}

// retryableError says whether a failed try may succeed again: a refused,
// reset or timed-out connection may; a certificate the client rejects, or
// a URL it cannot use, never will.
func retryableError(err error) bool {
	var cert *tls.CertificateVerificationError
	var unknown x509.UnknownAuthorityError
	var host x509.HostnameError
	var invalid x509.CertificateInvalidError
	switch {
	case errors.As(err, &cert), errors.As(err, &unknown), errors.As(err, &host), errors.As(err, &invalid):
		return false
	case strings.Contains(err.Error(), "unsupported protocol scheme"), strings.Contains(err.Error(), "no Host in request URL"):
		return false
	}
	return true
}

func (t *Transport) prepare(req *http.Request, try int) (*http.Request, error) {
	r := req.Clone(req.Context())
	carryTrace(r)
	for k, vs := range t.Header {
		if r.Header.Get(k) == "" {
			r.Header[k] = vs
		}
	}
	if try > 1 && req.GetBody != nil {
		body, err := req.GetBody()
		if err != nil {
			return nil, fmt.Errorf("%s: resend body: %w", t.Service, err)
		}
		r.Body = body
	}
	return r, nil
}
