package server

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/models"
)

// offline is the one agent of the package's tests: the offline defaults
// over the embedded documentation, threads kept in memory. Indexing the
// documentation takes about a second, so it is built once.
var offline *agent.Agent

func TestMain(m *testing.M) {
	code, err := run(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = 1
	}
	os.Exit(code)
}

func run(m *testing.M) (int, error) {
	cache, err := os.MkdirTemp("", "sgrgraph-server-test")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(cache)
	cfg := config.Default()
	cfg.KB.CacheDir = cache
	offline, err = agent.New(context.Background(), cfg, agent.Options{Store: checkpoint.NewMemory()})
	if err != nil {
		return 0, err
	}
	defer offline.Close()
	return m.Run(), nil
}

// serve starts the handler over a loopback listener for one test.
func serve(t *testing.T, a *agent.Agent, o Options) *httptest.Server {
	t.Helper()
	return serveHandler(t, New(a, o))
}

func serveHandler(t *testing.T, s *Server) *httptest.Server {
	t.Helper()
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return ts
}

// heldModel is a chat model that holds every call until its context ends,
// and says on started when a call began: it keeps turns in flight.
type heldModel struct{ started chan struct{} }

func (h heldModel) reply(ctx context.Context, _ []*schema.Message, _ *model.Options) ([]*schema.Message, error) {
	h.started <- struct{}{}
	<-ctx.Done()
	return nil, ctx.Err()
}

// heldAgent is an agent whose turns wait in their first model call until
// cancelled; it shares the offline agent's knowledge base (no second index).
func heldAgent(t *testing.T) (*agent.Agent, <-chan struct{}) {
	t.Helper()
	h := heldModel{started: make(chan struct{}, 16)}
	cfg := config.Default()
	cfg.KB.CacheDir = t.TempDir()
	a, err := agent.New(context.Background(), cfg, agent.Options{Knowledge: offline.Knowledge(), Model: models.New("Held", h.reply)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a, h.started
}

// post sends a JSON body with an optional bearer key and extra headers.
func post(t *testing.T, url, key, body string, header ...string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return res
}
