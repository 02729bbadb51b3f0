package outbound

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// ErrIdle is a response body that sent nothing for longer than the idle
// timeout: a stream whose server hangs part way ends with it, at once,
// rather than when the whole call's time runs out.
var ErrIdle = errors.New("the server sent nothing within the idle timeout")

// Timeouts bound the parts of one call. Zero values: DefaultConnectTimeout,
// and no idle bound.
type Timeouts struct {
	// Call bounds a whole call, tries and body included; 0 leaves it to
	// the caller's context (a stream's reader decides when it is done).
	Call time.Duration
	// Connect bounds one connection's dial and TLS handshake: a host that
	// drops packets is reported in seconds, not at the end of the call.
	Connect time.Duration
	// Idle bounds the wait for the next bytes of a response body.
	Idle time.Duration
}

// DefaultConnectTimeout is the connect timeout when none is given.
const DefaultConnectTimeout = 5 * time.Second

// Client is an http.Client whose calls go through a Transport with p, and
// are bounded by t and by the caller's context.
func Client(service string, p Policy, header http.Header, t Timeouts) *http.Client {
	// Its own pool, keeping idle connections for many calls at once to one
	// server (a batch's workers); the default keeps two and dials again.
	pool := http.DefaultTransport.(*http.Transport).Clone()
	pool.MaxIdleConnsPerHost = 64
	connect := t.Connect
	if connect <= 0 {
		connect = DefaultConnectTimeout
	}
	pool.DialContext = (&net.Dialer{Timeout: connect, KeepAlive: 30 * time.Second}).DialContext
	pool.TLSHandshakeTimeout = connect
	var base http.RoundTripper = pool
	if t.Idle > 0 {
		base = idleTransport{base: pool, idle: t.Idle}
	}
	return &http.Client{Transport: &Transport{Base: base, Policy: p, Service: service, Header: header}, Timeout: t.Call}
}

// idleTransport gives each response body an idle bound.
type idleTransport struct {
	base http.RoundTripper
	idle time.Duration
}

func (t idleTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil || resp.Body == nil || resp.Body == http.NoBody {
		return resp, err
	}
	b := &idleBody{body: resp.Body, idle: t.idle}
	b.timer = time.AfterFunc(t.idle, b.expire)
	resp.Body = b
	return resp, nil
}

// idleBody closes its body when no read has returned bytes for idle; the
// read that was waiting then reports ErrIdle.
type idleBody struct {
	body  io.ReadCloser
	idle  time.Duration
	timer *time.Timer

	mu      sync.Mutex
	expired bool
}

func (b *idleBody) expire() {
	b.mu.Lock()
	b.expired = true
	b.mu.Unlock()
	b.body.Close()
}

func (b *idleBody) Read(p []byte) (int, error) {
	n, err := b.body.Read(p)
	b.mu.Lock()
	expired := b.expired
	b.mu.Unlock()
	if expired {
		return n, fmt.Errorf("%w (%s)", ErrIdle, b.idle)
	}
	if n > 0 {
		b.timer.Reset(b.idle)
	}
	return n, err
}

func (b *idleBody) Close() error {
	b.timer.Stop()
	return b.body.Close()
}
