package openai

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/models"
	"github.com/sgrgraph/sgrgraph/outbound"
	"github.com/sgrgraph/sgrgraph/sgrtest"
	"github.com/sgrgraph/sgrgraph/sgrtest/openaitest"
)

var fast = outbound.Policy{Attempts: 3, BaseDelay: time.Millisecond, MaxDelay: 50 * time.Millisecond}

func newModel(t *testing.T, srv *openaitest.Server, forced string) *Model {
	t.Helper()
	m, err := New(context.Background(), Config{BaseURL: srv.URL, APIKey: "k", Model: "m", Timeout: 10 * time.Second,
		ForcedToolChoice: forced, Retry: fast, Headers: map[string]string{"X-Team": "support"}})
	require.NoError(t, err)
	return m
}

var sgrInfo = &schema.ToolInfo{Name: "analyse_user_request", Desc: "plan"}

func forcedSGR() []model.Option {
	return []model.Option{model.WithTools([]*schema.ToolInfo{sgrInfo}), model.WithToolChoice(schema.ToolChoiceForced, "analyse_user_request")}
}

func TestForcedToolChoiceOnTheWire(t *testing.T) {
	tests := []struct {
		capability string
		wire       string
		system     string // a piece of the system prompt the server saw
	}{
		{ForcedNamed, "function:analyse_user_request", "You plan."},
		{ForcedRequired, "required", "You plan."},
		{ForcedNone, "auto", "Answer by calling the function analyse_user_request now"},
	}
	for _, tc := range tests {
		t.Run(tc.capability, func(t *testing.T) {
			srv := openaitest.New(sgrtest.NewScriptedModel(sgrtest.ToolCall("analyse_user_request", `{"action":"normal"}`)))
			defer srv.Close()
			msg, err := newModel(t, srv, tc.capability).Generate(context.Background(),
				[]*schema.Message{schema.SystemMessage("You plan."), schema.UserMessage("hi")}, forcedSGR()...)
			require.NoError(t, err)
			require.Len(t, msg.ToolCalls, 1)
			req := srv.Requests()[0]
			assert.Equal(t, tc.wire, req.ToolChoice)
			assert.Equal(t, []string{"analyse_user_request"}, req.Tools)
			assert.Contains(t, req.Messages[0].Content, tc.system)
		})
	}
}

func TestStreamJoinsToolCallsSplitAcrossChunks(t *testing.T) {
	srv := openaitest.New(sgrtest.NewScriptedModel(
		sgrtest.ToolCalls(schema.ToolCall{ID: "a", Function: schema.FunctionCall{Name: "search_kb", Arguments: `{"query":"guard mode"}`}},
			schema.ToolCall{ID: "b", Function: schema.FunctionCall{Name: "search_kb", Arguments: `{"query":"tables"}`}}),
		sgrtest.Text("Set the mode with guard.mode [1]."),
	))
	defer srv.Close()
	m := newModel(t, srv, "")
	sr, err := m.Stream(context.Background(), []*schema.Message{schema.UserMessage("q")})
	require.NoError(t, err)
	msg, err := schema.ConcatMessageStream(sr)
	require.NoError(t, err)
	require.Len(t, msg.ToolCalls, 2)
	assert.Equal(t, `{"query":"guard mode"}`, msg.ToolCalls[0].Function.Arguments)
	assert.Equal(t, `{"query":"tables"}`, msg.ToolCalls[1].Function.Arguments)

	sr, err = m.Stream(context.Background(), []*schema.Message{schema.UserMessage("q")})
	require.NoError(t, err)
	msg, err = schema.ConcatMessageStream(sr)
	require.NoError(t, err)
	assert.Equal(t, "Set the mode with guard.mode [1].", msg.Content)
	assert.True(t, srv.Requests()[1].Stream)
}

func TestTokenCounts(t *testing.T) {
	for _, tc := range []struct {
		name      string
		noUsage   bool
		estimated bool
	}{
		{"the server's usage is taken", false, false},
		{"missing usage is estimated with a tokenizer", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reply := sgrtest.Text("Set the mode with guard.mode.")
			srv := openaitest.New(sgrtest.NewScriptedModel(reply, reply), openaitest.WithFaults(func(openaitest.Request) openaitest.Fault {
				return openaitest.Fault{NoUsage: tc.noUsage}
			}))
			defer srv.Close()
			m := newModel(t, srv, "")
			in := []*schema.Message{schema.UserMessage("How do I set the guard mode?")}
			msg, err := m.Generate(context.Background(), in)
			require.NoError(t, err)
			require.NotNil(t, msg.ResponseMeta.Usage)
			estimated, _ := msg.Extra[models.UsageEstimated].(bool)
			assert.Equal(t, tc.estimated, estimated)
			if tc.estimated {
				assert.Equal(t, 4+8, msg.ResponseMeta.Usage.PromptTokens, "o200k_base: 8 tokens and 4 for the message")
				assert.Positive(t, msg.ResponseMeta.Usage.CompletionTokens)
			}
			sr, err := m.Stream(context.Background(), in)
			require.NoError(t, err)
			streamed, err := schema.ConcatMessageStream(sr)
			require.NoError(t, err)
			require.NotNil(t, streamed.ResponseMeta.Usage, "usage arrives on the stream too")
			assert.Positive(t, streamed.ResponseMeta.Usage.PromptTokens)
		})
	}
}

func TestFaults(t *testing.T) {
	tests := []struct {
		name    string
		fault   func(n int) openaitest.Fault
		stream  bool
		ok      bool
		tries   int
		attempt string // a piece of the last failed attempt's error
	}{
		{"500 then an answer", func(n int) openaitest.Fault { return openaitest.Fault{Status: 500 * boolInt(n == 1)} }, false, true, 2, "500"},
		{"429 with Retry-After", func(n int) openaitest.Fault {
			if n == 1 {
				return openaitest.Fault{Status: 429, RetryAfter: "0"}
			}
			return openaitest.Fault{}
		}, true, true, 2, "429"},
		{"a stream cut in the middle is asked again", func(n int) openaitest.Fault { return openaitest.Fault{DropAfter: 2 * boolInt(n == 1)} }, true, true, 2, "stream cut after"},
		{"a stream cut every time ends in a clear error", func(int) openaitest.Fault { return openaitest.Fault{DropAfter: 2} }, true, false, 3, "stream cut after"},
		{"404 is not retried", func(int) openaitest.Fault { return openaitest.Fault{Status: 404} }, false, false, 1, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var n atomic.Int32
			srv := openaitest.New(sgrtest.NewScriptedModel(sgrtest.Text("Set the mode with guard.mode, as the guard article says.")).Repeat(),
				openaitest.WithFaults(func(openaitest.Request) openaitest.Fault { return tc.fault(int(n.Add(1))) }))
			defer srv.Close()
			var attempts []outbound.Attempt
			ctx := outbound.WithObserver(context.Background(), func(_ context.Context, a outbound.Attempt) { attempts = append(attempts, a) })
			m := newModel(t, srv, "")
			var msg *schema.Message
			var err error
			if tc.stream {
				var sr *schema.StreamReader[*schema.Message]
				if sr, err = m.Stream(ctx, []*schema.Message{schema.UserMessage("q")}); err == nil {
					msg, err = schema.ConcatMessageStream(sr)
				}
			} else {
				msg, err = m.Generate(ctx, []*schema.Message{schema.UserMessage("q")})
			}
			assert.Equal(t, tc.tries, len(srv.Requests()))
			if !tc.ok {
				require.Error(t, err)
				if tc.attempt != "" {
					assert.Contains(t, err.Error(), tc.attempt)
				}
				return
			}
			require.NoError(t, err)
			assert.Equal(t, "Set the mode with guard.mode, as the guard article says.", msg.Content, "one whole reply, never half of one twice")
			require.NotEmpty(t, attempts)
			assert.Contains(t, attempts[len(attempts)-1].Error, tc.attempt)
			assert.True(t, attempts[len(attempts)-1].Retried)
		})
	}
}

func TestTimeoutEndsAHangingServer(t *testing.T) {
	srv := openaitest.New(sgrtest.NewScriptedModel(sgrtest.Text("late")), openaitest.WithFaults(func(openaitest.Request) openaitest.Fault {
		return openaitest.Fault{Delay: time.Minute}
	}))
	defer srv.Close()
	m, err := New(context.Background(), Config{BaseURL: srv.URL, Model: "m", Timeout: 100 * time.Millisecond, Retry: fast})
	require.NoError(t, err)
	start := time.Now()
	_, err = m.Generate(context.Background(), []*schema.Message{schema.UserMessage("q")})
	require.Error(t, err)
	assert.Less(t, time.Since(start), 5*time.Second)
	assert.True(t, strings.Contains(err.Error(), "deadline") || strings.Contains(err.Error(), "Timeout"), err.Error())
}

func TestNewNamesBadSettings(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Model: "m", Retry: fast}, "base_url: must not be empty"},
		{Config{BaseURL: "http://x", Retry: fast}, "name: the model name must not be empty"},
		{Config{BaseURL: "http://x", Model: "m", ForcedToolChoice: "always", Retry: fast}, `forced_tool_choice: "always" is not named, required or none`},
		{Config{BaseURL: "http://x", Model: "m"}, "retry.attempts: 0 is outside 1..10"},
	} {
		_, err := New(context.Background(), tc.cfg)
		assert.ErrorContains(t, err, tc.want)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
