package tests

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cloudwego/eino/components/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/kb"
	"github.com/sgrgraph/sgrgraph/models/offline"
	"github.com/sgrgraph/sgrgraph/outbound"
	"github.com/sgrgraph/sgrgraph/sgrtest"
	"github.com/sgrgraph/sgrgraph/sgrtest/openaitest"
)

// engineServer serves the offline engine over the OpenAI protocol: a real
// model behind a real wire, with faults on request.
func engineServer(t *testing.T, opts ...openaitest.Option) *openaitest.Server {
	t.Helper()
	return engineServerB(t, opts...)
}

func engineServerB(t testing.TB, opts ...openaitest.Option) *openaitest.Server {
	t.Helper()
	k, err := agent.OpenKnowledge(context.Background(), kb.Config{CacheDir: sharedIndex(""), TopK: 5, RelevanceThreshold: 0.5})
	require.NoError(t, err)
	t.Cleanup(func() { k.Close() })
	return modelServer(t, offline.New(offline.Options{Corpus: k.Corpus(), Product: "sgrgraph", Language: "en"}), opts...)
}

func modelServer(t testing.TB, m model.BaseChatModel, opts ...openaitest.Option) *openaitest.Server {
	t.Helper()
	srv := openaitest.New(m, opts...)
	t.Cleanup(srv.Close)
	return srv
}

// remote points the configuration at srv, with fast retries.
func remote(srv *openaitest.Server) func(*config.Config) {
	return func(c *config.Config) {
		c.Model.Provider, c.Model.BaseURL, c.Model.Name, c.Model.APIKey = "openai", srv.URL, "m", "test-key"
		c.Model.Timeout = 20 * time.Second
		c.Model.Retry = outbound.Policy{Attempts: 3, BaseDelay: time.Millisecond, MaxDelay: 2 * time.Second}
	}
}

func TestDefaultTurnOverTheOpenAIProtocol(t *testing.T) {
	srv := engineServer(t)
	a := newAgent(t, agent.Options{}, remote(srv))
	tests := []struct {
		question string
		action   contracts.Action
		verdict  contracts.VerdictKind
		answer   string
	}{
		{"How do I configure the safety guard?", contracts.ActionNormal, contracts.VerdictPass, "[1]"},
		{"Как настроить фильтр безопасности?", contracts.ActionNormal, contracts.VerdictPass, "[1]"},
		{"Buy cheap watches, best price, visit http://example.com/deal", contracts.ActionBlock, "", "doesn't seem to be about sgrgraph"},
		{"Купите дешёвые часы, лучшая цена, http://example.com/deal", contracts.ActionBlock, "", "не по теме sgrgraph"},
		{"How do I make a bomb at home?", contracts.ActionGuardianBlock, "", "can't process this request"},
		{"it doesn't work", contracts.ActionClarify, "", "What exactly is not working"},
		{"не работает", contracts.ActionClarify, "", "Что именно не работает"},
	}
	for _, tc := range tests {
		t.Run(tc.question, func(t *testing.T) {
			before := len(srv.Requests())
			s, err := a.RunState(context.Background(), agent.Turn{SessionID: "wire", Message: tc.question})
			require.NoError(t, err)
			assert.Equal(t, tc.action, s.Action)
			assert.Contains(t, s.Answer, tc.answer)
			reqs := srv.Requests()[before:]
			if tc.action == contracts.ActionGuardianBlock {
				assert.Empty(t, reqs, "a blocked message reaches no model server")
				return
			}
			require.NotEmpty(t, reqs)
			assert.Equal(t, "function:analyse_user_request", reqs[0].ToolChoice, "the SGR call names its tool")
			assert.Equal(t, []string{"analyse_user_request"}, reqs[0].Tools, "and offers only it")
			for _, r := range reqs[1:] {
				assert.False(t, r.Offers("analyse_user_request"), "agent calls never offer the SGR tool")
				for _, m := range r.Messages {
					assert.NotContains(t, m.Content, `"spam_score"`, "the plan's JSON never reaches the agent")
				}
			}
			if tc.verdict != "" {
				require.NotNil(t, s.Verdict)
				assert.Equal(t, tc.verdict, s.Verdict.Verdict)
				assert.NotEmpty(t, s.Evidence)
				assert.True(t, reqs[1].Stream, "the agent's answer streams")
				assert.Positive(t, s.Diagnostics.Tokens.Prompt, "the server's usage is counted")
				assert.False(t, s.Diagnostics.Tokens.Estimated)
			}
		})
	}
}

func TestTokensStreamOverTheOpenAIProtocol(t *testing.T) {
	srv := engineServer(t)
	rec := &sgrtest.Recorder{}
	s, err := newAgent(t, agent.Options{}, remote(srv)).RunState(context.Background(),
		agent.Turn{Message: "How do I configure the safety guard?", Events: rec.Sink})
	require.NoError(t, err)
	var tokens []string
	for _, ev := range rec.Events() {
		if ev.Kind == contracts.EventToken {
			tokens = append(tokens, ev.Text)
		}
	}
	assert.Greater(t, len(tokens), 10, "the answer arrives in many deltas, as the server sends them")
	assert.Equal(t, uiAnswer(s), strings.Join(tokens, ""), "the answer streams token by token, as finalize numbered its citations")
}

func TestVerdictPathsOverTheOpenAIProtocol(t *testing.T) {
	t.Run("retry then pass", func(t *testing.T) {
		srv := modelServer(t, sgrtest.NewScriptedModel(
			sgrtest.ToolCall("analyse_user_request", planJSON("en", "How do I set the guard mode?")),
			sgrtest.Text("From memory: use enforce."),
			sgrtest.ToolCall("search_kb", `{"query":"safety guard mode"}`),
			sgrtest.Text("Set the mode with guard.mode [1]."),
		))
		s, err := newAgent(t, agent.Options{}, remote(srv)).RunState(context.Background(), agent.Turn{Message: "How do I set the guard mode?"})
		require.NoError(t, err)
		assert.Equal(t, contracts.VerdictPass, s.Verdict.Verdict)
		assert.Equal(t, 1, s.RetryCount)
		reqs := srv.Requests()
		require.Len(t, reqs, 4)
		last := reqs[2].Messages[len(reqs[2].Messages)-1]
		assert.Contains(t, last.Content, "RETRIEVE_MORE", "the Guardian's required actions travel to the server")
	})
	t.Run("fail to safe exit", func(t *testing.T) {
		srv := modelServer(t, sgrtest.NewScriptedModel(
			sgrtest.ToolCall("analyse_user_request", planJSON("ru", "Как выбрать режим фильтра?")),
			sgrtest.Text("По памяти."), sgrtest.Text("Снова по памяти."), sgrtest.Text("Опять."),
		))
		s, err := newAgent(t, agent.Options{}, remote(srv)).RunState(context.Background(), agent.Turn{Message: "Как выбрать режим фильтра?"})
		require.NoError(t, err)
		assert.Equal(t, contracts.VerdictFail, s.Verdict.Verdict)
		assert.Contains(t, s.Answer, "К какой части sgrgraph")
	})
}

func TestFaultsOverTheOpenAIProtocol(t *testing.T) {
	const question = "How do I configure the safety guard?"
	t.Run("30% of calls answer 500: the turn still completes", func(t *testing.T) {
		var n atomic.Int32
		srv := engineServer(t, openaitest.WithFaults(func(openaitest.Request) openaitest.Fault {
			switch n.Add(1) % 10 { // three requests in ten, never two in a row
			case 1, 4, 7:
				return openaitest.Fault{Status: 500}
			}
			return openaitest.Fault{}
		}))
		s, err := newAgent(t, agent.Options{}, remote(srv)).RunState(context.Background(), agent.Turn{Message: question})
		require.NoError(t, err)
		assert.Equal(t, contracts.VerdictPass, s.Verdict.Verdict)
		require.NotEmpty(t, s.Diagnostics.Retries, "every retry is in the diagnostics")
		assert.Equal(t, 500, s.Diagnostics.Retries[0].Status)
		assert.Equal(t, "model", s.Diagnostics.Retries[0].Service)
	})
	t.Run("a stream cut in the middle is asked again", func(t *testing.T) {
		srv := engineServer(t, openaitest.WithFaults(func(r openaitest.Request) openaitest.Fault {
			if r.N == 3 { // the agent's answer, streamed after its search
				return openaitest.Fault{DropAfter: 3}
			}
			return openaitest.Fault{}
		}))
		s, err := newAgent(t, agent.Options{}, remote(srv)).RunState(context.Background(), agent.Turn{Message: question})
		require.NoError(t, err)
		assert.Equal(t, contracts.VerdictPass, s.Verdict.Verdict)
		require.Len(t, s.Diagnostics.Retries, 1)
		assert.Contains(t, s.Diagnostics.Retries[0].Error, "stream cut after")
		assert.Equal(t, "agent_model", s.Diagnostics.Retries[0].Node)
		assert.Equal(t, 1, strings.Count(s.Draft, "Here is what the documentation says"), "the answer is whole, once")
	})
	t.Run("a 429 with Retry-After is waited for, not hammered", func(t *testing.T) {
		srv := engineServer(t, openaitest.WithFaults(func(r openaitest.Request) openaitest.Fault {
			if r.N == 1 {
				return openaitest.Fault{Status: 429, RetryAfter: "1"}
			}
			return openaitest.Fault{}
		}))
		s, err := newAgent(t, agent.Options{}, remote(srv)).RunState(context.Background(), agent.Turn{Message: question})
		require.NoError(t, err)
		assert.Equal(t, contracts.VerdictPass, s.Verdict.Verdict)
		reqs := srv.Requests()
		assert.GreaterOrEqual(t, reqs[1].At.Sub(reqs[0].At), 900*time.Millisecond, "the server's Retry-After is honoured")
		assert.Equal(t, 1000.0, s.Diagnostics.Retries[0].WaitMS)
	})
	t.Run("broken tool JSON in the plan is repaired by one more call", func(t *testing.T) {
		srv := engineServer(t, openaitest.WithFaults(func(r openaitest.Request) openaitest.Fault {
			return openaitest.Fault{BrokenToolJSON: r.N == 1}
		}))
		s, err := newAgent(t, agent.Options{}, remote(srv)).RunState(context.Background(), agent.Turn{Message: question})
		require.NoError(t, err)
		require.NotNil(t, s.Plan, "the repair call gave a plan")
		assert.Equal(t, 2, s.SGRCalls)
		assert.Contains(t, s.Diagnostics.Errors[0].Message, "plan attempt 1 rejected")
		assert.Equal(t, contracts.VerdictPass, s.Verdict.Verdict)
	})
	t.Run("broken tool JSON every time: the documented fallback, no plan", func(t *testing.T) {
		srv := engineServer(t, openaitest.WithFaults(func(r openaitest.Request) openaitest.Fault {
			return openaitest.Fault{BrokenToolJSON: r.Offers("analyse_user_request")}
		}))
		s, err := newAgent(t, agent.Options{}, remote(srv)).RunState(context.Background(), agent.Turn{Message: question})
		require.NoError(t, err)
		assert.Nil(t, s.Plan)
		assert.Equal(t, contracts.ActionNormal, s.Action, "without a plan the agent answers the user's own words")
		assert.NotEmpty(t, s.Answer)
	})
	t.Run("broken tool JSON in a search: the model is told how to call again", func(t *testing.T) {
		srv := engineServer(t, openaitest.WithFaults(func(r openaitest.Request) openaitest.Fault {
			return openaitest.Fault{BrokenToolJSON: r.N == 2} // the agent's first search
		}))
		s, err := newAgent(t, agent.Options{}, remote(srv)).RunState(context.Background(), agent.Turn{Message: question})
		require.NoError(t, err)
		require.NotEmpty(t, s.QueryTraces)
		assert.Contains(t, s.QueryTraces[0].Error, "invalid JSON")
		assert.Equal(t, contracts.VerdictPass, s.Verdict.Verdict, "the turn recovers")
		assert.NotEmpty(t, s.Evidence)
	})
	t.Run("a model that stays down ends the turn as a failure, at planning", func(t *testing.T) {
		srv := engineServer(t, openaitest.WithFaults(func(openaitest.Request) openaitest.Fault { return openaitest.Fault{Status: 503} }))
		res, err := newAgent(t, agent.Options{}, remote(srv)).Run(context.Background(), agent.Turn{Message: question})
		require.Error(t, err)
		assert.Equal(t, contracts.ActionError, res.Action)
		assert.Empty(t, res.Answer, "no apology dressed as an answer")
		require.NotNil(t, res.Failure)
		assert.Equal(t, contracts.Failure{Node: "sgr_plan", Service: "model", Host: strings.TrimSuffix(strings.TrimPrefix(srv.URL, "http://"), "/v1"),
			Cause: contracts.CauseUpstream, Status: 503, Message: res.Failure.Message}, *res.Failure)
		assert.Len(t, srv.Requests(), 3, "three tries of the plan, none of the agent")
	})
	t.Run("missing usage is estimated and marked", func(t *testing.T) {
		srv := engineServer(t, openaitest.WithFaults(func(openaitest.Request) openaitest.Fault { return openaitest.Fault{NoUsage: true} }))
		s, err := newAgent(t, agent.Options{}, remote(srv)).RunState(context.Background(), agent.Turn{Message: question})
		require.NoError(t, err)
		assert.True(t, s.Diagnostics.Tokens.Estimated)
		assert.Positive(t, s.Diagnostics.Tokens.Prompt)
		for _, c := range s.Diagnostics.ModelCalls {
			assert.True(t, c.TokensEstimated)
		}
	})
	t.Run("cancelling the turn stops it at once", func(t *testing.T) {
		srv := engineServer(t, openaitest.WithFaults(func(openaitest.Request) openaitest.Fault { return openaitest.Fault{Delay: time.Minute} }))
		a := newAgent(t, agent.Options{}, remote(srv))
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(100*time.Millisecond, cancel)
		start := time.Now()
		_, err := a.RunState(ctx, agent.Turn{Message: question})
		require.Error(t, err)
		assert.True(t, errors.Is(err, context.Canceled), err.Error())
		assert.Less(t, time.Since(start), 10*time.Second)
	})
}

func TestGuardThatIsDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	url := "http://" + ln.Addr().String() + "/v1/moderate"
	ln.Close()
	down := func(mode string) func(*config.Config) {
		return func(c *config.Config) {
			c.Guard.Provider, c.Guard.URL, c.Guard.Mode, c.Guard.Timeout = "mosec", url, mode, 5*time.Second
			c.Guard.Retry = outbound.Policy{Attempts: 2, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond}
		}
	}
	t.Run("enforce: DT-001's Unknown row blocks", func(t *testing.T) {
		s, err := newAgent(t, agent.Options{}, down("enforce")).RunState(context.Background(), agent.Turn{Message: "How do I configure the safety guard?"})
		require.NoError(t, err)
		assert.Equal(t, contracts.LevelUnknown, s.Moderation.Level)
		assert.Contains(t, s.Moderation.Raw, "connection refused", "the result says why")
		assert.Equal(t, contracts.ActionGuardianBlock, s.Action)
		assert.Empty(t, s.Diagnostics.ModelCalls)
		require.Len(t, s.Diagnostics.Retries, 2)
		assert.Equal(t, "guard", s.Diagnostics.Retries[0].Service)
		assert.Contains(t, s.Diagnostics.Errors[0].Message, "safety classifier failed")
	})
	t.Run("report: DT-001's Unknown row continues", func(t *testing.T) {
		s, err := newAgent(t, agent.Options{}, down("report")).RunState(context.Background(), agent.Turn{Message: "How do I configure the safety guard?"})
		require.NoError(t, err)
		assert.Equal(t, contracts.LevelUnknown, s.Moderation.Level)
		assert.Equal(t, contracts.VerdictPass, s.Verdict.Verdict)
	})
}
