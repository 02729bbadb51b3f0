package openai_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/kb"
	"github.com/sgrgraph/sgrgraph/models/offline"
	"github.com/sgrgraph/sgrgraph/outbound"
	"github.com/sgrgraph/sgrgraph/sgrtest/openaitest"
)

// A whole turn against a server that closes the connection part way through
// a streamed reply: the turn either gets the whole reply on a later try or
// fails, its failure classed as a cut stream of agent_model; it never
// answers from half a reply, nor with an apology dressed as an answer.
func TestTurnOverAStreamClosedBeforeItsEnd(t *testing.T) {
	const question = "How do I configure the safety guard?"
	// Requests of a turn: 1 the plan, 2 the agent's forced search (a
	// streamed tool call), 3 the agent's streamed answer.
	tests := []struct {
		name     string
		cut      func(n int) bool
		requests int
		passes   bool
		searched bool // the search ran: its tool call came whole
	}{
		{"the answer cut once", func(n int) bool { return n == 3 }, 4, true, true},
		{"the answer cut every time", func(n int) bool { return n >= 3 }, 5, false, true},
		{"the search's tool-call arguments cut every time", func(n int) bool { return n >= 2 }, 4, false, false},
	}
	engine := offlineEngine(t)
	cache := t.TempDir() // the agents of the cases, one after the other, share one index
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := openaitest.New(engine, openaitest.WithFaults(func(r openaitest.Request) openaitest.Fault {
				if tc.cut(r.N) {
					return openaitest.Fault{CloseAfter: 3} // the role, then a word of text or half the arguments
				}
				return openaitest.Fault{}
			}))
			defer srv.Close()
			a := newAgent(t, srv, cache)
			if !tc.passes {
				res, err := a.Run(context.Background(), agent.Turn{Message: question})
				require.Error(t, err)
				assert.Len(t, srv.Requests(), tc.requests)
				assert.Equal(t, contracts.ActionError, res.Action)
				assert.Empty(t, res.Answer, "no part of a cut reply reaches the user")
				require.NotNil(t, res.Failure)
				assert.Equal(t, "agent_model", res.Failure.Node)
				assert.Equal(t, contracts.CauseStreamCut, res.Failure.Cause)
				assert.Contains(t, res.Failure.Message, "stream cut before finish_reason")
				assert.Equal(t, strings.TrimSuffix(strings.TrimPrefix(srv.URL, "http://"), "/v1"), res.Failure.Host, "the failure names the model's host")
				return
			}
			s, err := a.RunState(context.Background(), agent.Turn{Message: question})
			require.NoError(t, err)
			assert.Len(t, srv.Requests(), tc.requests)
			require.NotEmpty(t, s.Diagnostics.Retries, "every cut is in the diagnostics")
			for _, r := range s.Diagnostics.Retries {
				assert.Equal(t, "agent_model", r.Node)
				assert.Contains(t, r.Error, "stream cut before finish_reason")
			}
			require.NotNil(t, s.Verdict)
			assert.Equal(t, contracts.VerdictPass, s.Verdict.Verdict)
			assert.Equal(t, 1, strings.Count(s.Answer, "Here is what the documentation says"), "the whole answer, once")
		})
	}
}

// offlineEngine is the offline engine over the embedded documentation,
// the model behind the test server.
func offlineEngine(t *testing.T) *offline.Engine {
	t.Helper()
	k, err := agent.OpenKnowledge(context.Background(), kb.Config{CacheDir: t.TempDir(), TopK: 5, RelevanceThreshold: 0.5})
	require.NoError(t, err)
	t.Cleanup(func() { k.Close() })
	return offline.New(offline.Options{Corpus: k.Corpus(), Product: "sgrgraph", Language: "en"})
}

func newAgent(t *testing.T, srv *openaitest.Server, cache string) *agent.Agent {
	t.Helper()
	cfg := config.Default()
	cfg.KB.CacheDir = cache
	cfg.Model.Provider, cfg.Model.BaseURL, cfg.Model.Name, cfg.Model.APIKey = "openai", srv.URL, "m", "test-key"
	cfg.Model.Timeout = 20 * time.Second
	cfg.Model.Retry = outbound.Policy{Attempts: 3, BaseDelay: time.Millisecond, MaxDelay: 50 * time.Millisecond}
	a, err := agent.New(context.Background(), cfg, agent.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { a.Close() })
	return a
}
