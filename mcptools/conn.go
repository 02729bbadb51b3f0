package mcptools

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sgrgraph/sgrgraph/outbound"
)

// conn is one server's connection, made again when it is lost.
type conn struct {
	srv    Server
	client *mcp.Client
	retry  outbound.Policy

	mu      sync.Mutex
	session *mcp.ClientSession
	closed  bool
	// stderr keeps the last command's last lines on standard error.
	stderr atomic.Pointer[tail]
	// process is the last command started (tests stop it).
	process atomic.Pointer[os.Process]
}

// inherited are the variables of this process's environment a command
// gets besides Server.Env: what a program needs to run, no keys.
var inherited = []string{"PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "LANG", "LC_ALL", "TMPDIR", "TZ",
	"XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR", "SYSTEMROOT", "APPDATA", "LOCALAPPDATA", "USERPROFILE"}

func newConn(srv Server, client *mcp.Client) *conn {
	srv = srv.withDefaults()
	return &conn{srv: srv, client: client,
		retry: outbound.Policy{Attempts: srv.Attempts, BaseDelay: 200 * time.Millisecond, MaxDelay: 2 * time.Second}}
}

// failure is an error of the server, or of one of its tools: it names them.
func (c *conn) failure(tool string, err error) error {
	what := fmt.Sprintf("mcp server %q", c.srv.Name)
	if tool != "" {
		what += fmt.Sprintf(": tool %q", tool)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// get is the open session, connecting first when there is none. A first
// connection is tried up to Attempts times: a server that is still
// starting, or an HTTP endpoint that blinked, gets another chance.
func (c *conn) get(ctx context.Context) (*mcp.ClientSession, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, errors.New("the connection is closed")
	}
	if c.session != nil {
		return c.session, nil
	}
	for try := 1; ; try++ {
		s, err := c.dial(ctx)
		if err == nil {
			c.session = s
			go c.watch(s)
			return s, nil
		}
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist) || !c.retry.Again(ctx, "mcp:"+c.srv.Name, try, err) {
			return nil, err
		}
	}
}

// watch forgets s once it ends (the command exited, the server closed it),
// so the next call connects again at once rather than failing first.
func (c *conn) watch(s *mcp.ClientSession) {
	_ = s.Wait()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.session == s {
		c.session = nil
	}
}

// drop ends s, if it is still the session, after a call found it broken.
func (c *conn) drop(s *mcp.ClientSession) {
	c.mu.Lock()
	if c.session == s {
		c.session = nil
	}
	c.mu.Unlock()
	_ = s.Close()
}

// dial connects once, within ConnectTimeout.
func (c *conn) dial(ctx context.Context) (*mcp.ClientSession, error) {
	ctx, cancel := context.WithTimeout(ctx, c.srv.ConnectTimeout)
	defer cancel()
	var t mcp.Transport
	if c.srv.URL != "" {
		t = c.httpTransport()
	} else {
		cmd := exec.Command(c.srv.Command, c.srv.Args...)
		cmd.Dir = c.srv.Dir
		cmd.Env = environment(c.srv.Env)
		stderr := &tail{}
		c.stderr.Store(stderr)
		cmd.Stderr = stderr
		t = &mcp.CommandTransport{Command: cmd, TerminateDuration: time.Second}
	}
	s, err := c.client.Connect(ctx, t, nil)
	if ct, ok := t.(*mcp.CommandTransport); ok && ct.Command.Process != nil {
		c.process.Store(ct.Command.Process)
	}
	if err != nil {
		if ctx.Err() != nil && !errors.Is(err, context.Canceled) {
			err = fmt.Errorf("no answer within connect_timeout %s: %w", c.srv.ConnectTimeout, err)
		}
		return nil, fmt.Errorf("connect (%s): %w%s", c.where(), err, c.stderrNote())
	}
	return s, nil
}

// where is what the server is: its command or its URL, for errors.
func (c *conn) where() string {
	if c.srv.URL != "" {
		return c.srv.URL
	}
	return strings.Join(append([]string{c.srv.Command}, c.srv.Args...), " ")
}

// stderrNote is what the command last wrote on standard error, which
// often says why it stopped.
func (c *conn) stderrNote() string {
	t := c.stderr.Load()
	if t == nil {
		return ""
	}
	if s := strings.TrimSpace(t.String()); s != "" {
		return "; its standard error ends: " + s
	}
	return ""
}

// environment is the command's: the inherited variables, then env.
func environment(env map[string]string) []string {
	var out []string
	for _, k := range inherited {
		if v, ok := os.LookupEnv(k); ok {
			if _, set := env[k]; !set {
				out = append(out, k+"="+v)
			}
		}
	}
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	return out
}

// httpTransport is a Streamable HTTP transport that sends the headers and
// the bearer token with every request. Its dials and TLS handshakes are
// bounded by ConnectTimeout; a call, by its context (CallTimeout).
func (c *conn) httpTransport() mcp.Transport {
	pool := http.DefaultTransport.(*http.Transport).Clone()
	pool.DialContext = (&net.Dialer{Timeout: c.srv.ConnectTimeout, KeepAlive: 30 * time.Second}).DialContext
	pool.TLSHandshakeTimeout = c.srv.ConnectTimeout
	h := http.Header{}
	for k, v := range c.srv.Headers {
		h.Set(k, v)
	}
	if c.srv.BearerToken != "" {
		h.Set("Authorization", "Bearer "+c.srv.BearerToken)
	}
	// The SDK's own retries resume a cut response stream; -1 is none.
	sse := c.srv.Attempts - 1
	if sse <= 0 {
		sse = -1
	}
	return &mcp.StreamableClientTransport{Endpoint: c.srv.URL, HTTPClient: &http.Client{Transport: headers{base: pool, h: h}},
		MaxRetries: sse, DisableStandaloneSSE: true}
}

// headers adds fixed headers to every request.
type headers struct {
	base http.RoundTripper
	h    http.Header
}

func (t headers) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range t.h {
		r.Header[k] = v
	}
	return t.base.RoundTrip(r)
}

// call calls the tool, connecting as needed. A connection lost during the
// call is made again and the call sent again, up to Attempts connections,
// when retry says the tool may run twice; else the call fails, and the
// next one connects again.
func (c *conn) call(ctx context.Context, tool string, args any, retry bool) (*mcp.CallToolResult, error) {
	for try := 1; ; try++ {
		s, err := c.get(ctx)
		if err != nil {
			return nil, err
		}
		callCtx, cancel := context.WithTimeout(ctx, c.srv.CallTimeout)
		res, err := s.CallTool(callCtx, &mcp.CallToolParams{Name: tool, Arguments: args})
		timedOut := callCtx.Err() != nil && ctx.Err() == nil
		cancel()
		switch {
		case err == nil:
			return res, nil
		case ctx.Err() != nil:
			return nil, err
		case timedOut:
			return nil, fmt.Errorf("no answer within timeout %s", c.srv.CallTimeout)
		case !lost(err):
			return nil, err // the server answered: an unknown tool, bad arguments
		}
		c.drop(s)
		err = fmt.Errorf("the connection was lost during the call: %w%s", err, c.stderrNote())
		if !retry {
			return nil, fmt.Errorf("%w; not sent again, as the server does not mark the tool read-only or idempotent", err)
		}
		if !c.retry.Again(ctx, "mcp:"+c.srv.Name, try, err) {
			return nil, err
		}
	}
}

// lost says whether err is the connection failing rather than the server
// answering with an error.
func lost(err error) bool {
	var wire *jsonrpc.Error
	return !errors.As(err, &wire) && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
}

// close ends the session: over stdio it closes the command's input, and
// stops the command if it does not exit.
func (c *conn) close() error {
	c.mu.Lock()
	s := c.session
	c.session, c.closed = nil, true
	c.mu.Unlock()
	if s == nil {
		return nil
	}
	// Over HTTP, closing sends a DELETE of the session, which is
	// best-effort: a server that is gone has forgotten it already.
	if err := s.Close(); err != nil && !isExit(err) && c.srv.URL == "" {
		return c.failure("", fmt.Errorf("close: %w", err))
	}
	return nil
}

// isExit: the command ended on the signal close sent it, which is how a
// server that does not exit when its input closes is stopped.
func isExit(err error) bool {
	var exit *exec.ExitError
	return errors.As(err, &exit)
}

// tail keeps the last bytes written to it.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

const tailBytes = 2048

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailBytes {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailBytes:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
