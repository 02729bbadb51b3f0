package server

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/config"
	engines "github.com/sgrgraph/sgrgraph/models/offline"
	"github.com/sgrgraph/sgrgraph/outbound"
	"github.com/sgrgraph/sgrgraph/sgrtest/openaitest"
)

// modelFault is one row of the fault table of docs/provider-openai.md:
// what the model server does, and what serve answers for it.
type modelFault struct {
	name   string
	fault  func(openaitest.Request) openaitest.Fault // nil: no server listens at all
	status int                                       // serve's status, streamed or not
	code   string                                    // its error code; "" when the turn answers
}

// modelFaults are the faults of a model server that sgrgraph meets in
// practice; every one that leaves no answer is a 5xx, never a 200.
var modelFaults = []modelFault{
	{"refused: nothing listens", nil, http.StatusServiceUnavailable, "model_unavailable"},
	{"hang: connected, never answers", always(openaitest.Fault{Delay: time.Minute}), http.StatusGatewayTimeout, "model_timeout"},
	{"429 on every try", always(openaitest.Fault{Status: 429, RetryAfter: "0"}), http.StatusServiceUnavailable, "model_unavailable"},
	{"5xx on every try", always(openaitest.Fault{Status: 500}), http.StatusBadGateway, "model_error"},
	{"401: a bad key", always(openaitest.Fault{Status: 401}), http.StatusBadGateway, "model_error"},
	{"a stream cut every time", onStreams(openaitest.Fault{CloseAfter: 2}), http.StatusBadGateway, "model_error"},
	{"a stream that stalls", onStreams(openaitest.Fault{StallAfter: 2}), http.StatusGatewayTimeout, "model_timeout"},
	{"a body that is not JSON", always(openaitest.Fault{BadJSON: true}), http.StatusBadGateway, "model_error"},
	{"no choices", always(openaitest.Fault{EmptyChoices: true}), http.StatusBadGateway, "model_error"},
	// A model that answers with broken tool arguments is up: the plan is
	// asked once more, then the turn goes on without one; the agent is
	// told its call was not JSON, and the Guardian judges what is left.
	{"broken tool arguments every time", always(openaitest.Fault{BrokenToolJSON: true}), http.StatusOK, ""},
}

func always(f openaitest.Fault) func(openaitest.Request) openaitest.Fault {
	return func(openaitest.Request) openaitest.Fault { return f }
}

// onStreams faults the agent's streamed calls only: the plan is answered.
func onStreams(f openaitest.Fault) func(openaitest.Request) openaitest.Fault {
	return func(r openaitest.Request) openaitest.Fault {
		if r.Stream {
			return f
		}
		return openaitest.Fault{}
	}
}

// faultyAgent is the default turn over a model server that faults as the
// row says, with short timeouts and fast retries.
func faultyAgent(t *testing.T, f modelFault) *agent.Agent {
	t.Helper()
	cfg := config.Default()
	cfg.KB.CacheDir = t.TempDir()
	cfg.Model.Provider, cfg.Model.Name, cfg.Model.APIKey = "openai", "m", "test-key"
	cfg.Model.Timeout, cfg.Model.IdleTimeout = 2*time.Second, time.Second
	cfg.Model.Retry = outbound.Policy{Attempts: 2, BaseDelay: time.Millisecond, MaxDelay: 10 * time.Millisecond}
	if f.fault == nil {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		cfg.Model.BaseURL = "http://" + l.Addr().String() + "/v1"
		l.Close() // nothing listens there now: a connection is refused
	} else {
		engine := engines.New(engines.Options{Corpus: offline.Knowledge().Corpus(), Product: "sgrgraph", Language: "en"})
		srv := openaitest.New(engine, openaitest.WithFaults(f.fault))
		t.Cleanup(srv.Close)
		cfg.Model.BaseURL = srv.URL
	}
	store := checkpoint.NewMemory()
	a, err := agent.New(context.Background(), cfg, agent.Options{Knowledge: offline.Knowledge(), Store: store})
	require.NoError(t, err)
	t.Cleanup(func() { a.Close(); store.Close() })
	return a
}

// TestModelFaults is the fault table: for each fault, the official client's
// completion and stream both raise an error of serve's status (never a 200
// with an apology for an answer), the metrics count the turn as
// action="error", and the server logs one line naming node, host and cause.
func TestModelFaults(t *testing.T) {
	for _, f := range modelFaults {
		t.Run(f.name, func(t *testing.T) {
			var log lockedBuffer
			ts := serve(t, faultyAgent(t, f), Options{Log: zerolog.New(&log)})
			c := client(ts.URL, "")
			_, err := c.Chat.Completions.New(context.Background(), asking(question))
			stream := c.Chat.Completions.NewStreaming(context.Background(), asking(question))
			for stream.Next() {
			}
			streamErr := stream.Err()
			if f.code == "" {
				require.NoError(t, err)
				require.NoError(t, streamErr)
				return
			}
			for _, err := range []error{err, streamErr} {
				var apiErr *openai.Error
				require.True(t, errors.As(err, &apiErr), "the client raises: %v", err)
				assert.Equal(t, f.status, apiErr.StatusCode)
				assert.Equal(t, f.code, apiErr.Code)
				assert.NotContains(t, apiErr.Message, "127.0.0.1", "the host stays in the log")
			}
			if f.status == http.StatusServiceUnavailable {
				res := post(t, ts.URL+"/v1/chat/completions", "", `{"model":"sgrgraph","messages":[{"role":"user","content":"`+question+`"}]}`)
				assert.Equal(t, "10", res.Header.Get("Retry-After"))
			}
			assert.Contains(t, metricsOf(t, ts.URL), `sgrgraph_turns_total{action="error",verdict="none"}`)
			lines := strings.Count(log.String(), "turn failed: the model could not answer")
			assert.GreaterOrEqual(t, lines, 2, "one error line a failed turn: %s", log.String())
			assert.Contains(t, log.String(), `"cause":`)
			assert.Contains(t, log.String(), `"host":"127.0.0.1:`)
			assert.NotContains(t, log.String(), question, "no message text in the log")
		})
	}
}

func metricsOf(t *testing.T, url string) string {
	t.Helper()
	res, err := http.Get(url + "/metrics")
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return string(b)
}
