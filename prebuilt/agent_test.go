package prebuilt_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/graph"
	"github.com/sgrgraph/sgrgraph/prebuilt"
	"github.com/sgrgraph/sgrgraph/sgrtest"
)

func setAnswer(s *chat, w weather) { s.Answer = &w }

func TestAgent(t *testing.T) {
	ctx := context.Background()
	oslo := sgrtest.ToolCall("forecast", `{"city":"Oslo"}`)
	for _, tc := range []struct {
		name    string
		opts    []prebuilt.AgentOption[*chat]
		replies []sgrtest.Reply
		want    []string // the conversation after the run
		choices []string // the tool choice of each model call
		answer  *weather
		err     string
		check   func(t *testing.T, reqs []sgrtest.Request)
	}{
		{name: "an answer without tools", replies: []sgrtest.Reply{sgrtest.Text("Hi!")},
			want: []string{"user: weather in Oslo?", "assistant: Hi!"}, choices: []string{"auto"}},
		{name: "a tool, then the answer", replies: []sgrtest.Reply{oslo, sgrtest.Text("Sunny, 21°C.")},
			want:    []string{"user: weather in Oslo?", "assistant forecast", "tool forecast: sunny in Oslo, 21°C", "assistant: Sunny, 21°C."},
			choices: []string{"auto", "auto"}},
		{name: "the system prompt leads each call and stays out of the state",
			opts:    []prebuilt.AgentOption[*chat]{prebuilt.WithSystemPrompt[*chat]("You are a weather bot.")},
			replies: []sgrtest.Reply{sgrtest.Text("Hi!")}, want: []string{"user: weather in Oslo?", "assistant: Hi!"}, choices: []string{"auto"},
			check: func(t *testing.T, reqs []sgrtest.Request) {
				assert.Equal(t, []string{"system: You are a weather bot.", "user: weather in Oslo?"}, roles(reqs[0].Messages))
				assert.Equal(t, []string{"forecast"}, reqs[0].Tools)
			}},
		{name: "a forced first call", opts: []prebuilt.AgentOption[*chat]{prebuilt.WithForcedFirstToolCall[*chat]("forecast")},
			replies: []sgrtest.Reply{oslo, sgrtest.Text("Sunny.")}, choices: []string{"required", "auto"},
			check: func(t *testing.T, reqs []sgrtest.Request) { assert.Equal(t, []string{"forecast"}, reqs[0].Allowed) }},
		{name: "the last iteration forbids tools and drops the calls of a model that ignores it",
			opts:    []prebuilt.AgentOption[*chat]{prebuilt.WithMaxIterations[*chat](2), prebuilt.WithSystemPrompt[*chat]("Be brief.")},
			replies: []sgrtest.Reply{oslo, sgrtest.ToolCalls(schema.ToolCall{Function: schema.FunctionCall{Name: "forecast", Arguments: `{"city":"Rome"}`}})},
			want:    []string{"user: weather in Oslo?", "assistant forecast", "tool forecast: sunny in Oslo, 21°C", "assistant: "},
			choices: []string{"auto", "none"},
			check: func(t *testing.T, reqs []sgrtest.Request) {
				assert.Equal(t, "system: Be brief.\n\nYou may call no more tools: answer now from what the tools have returned.", roles(reqs[1].Messages)[0])
			}},
		{name: "one iteration: tools forbidden from the start, without the note",
			opts:    []prebuilt.AgentOption[*chat]{prebuilt.WithMaxIterations[*chat](1), prebuilt.WithForcedFirstToolCall[*chat]()},
			replies: []sgrtest.Reply{sgrtest.Text("From memory: cold.")}, choices: []string{"none"},
			check: func(t *testing.T, reqs []sgrtest.Request) { assert.Len(t, reqs[0].Messages, 1) }},
		{name: "structured output", opts: []prebuilt.AgentOption[*chat]{prebuilt.WithStructuredOutput(setAnswer)},
			replies: []sgrtest.Reply{oslo, sgrtest.Text("Sunny, 21°C."), sgrtest.ToolCall(prebuilt.ResponseToolName, `{"city":"Oslo","temp_c":21}`)},
			want:    []string{"user: weather in Oslo?", "assistant forecast", "tool forecast: sunny in Oslo, 21°C", "assistant: Sunny, 21°C."},
			choices: []string{"auto", "auto", "required"}, answer: &weather{City: "Oslo", TempC: 21},
			check: func(t *testing.T, reqs []sgrtest.Request) {
				assert.Equal(t, []string{prebuilt.ResponseToolName}, reqs[2].Tools)
				assert.Equal(t, []string{prebuilt.ResponseToolName}, reqs[2].Allowed)
				assert.Equal(t, "system: Give the final answer by calling final_response.", roles(reqs[2].Messages)[0])
			}},
		{name: "structured output that does not fit is asked for again, with the error",
			opts: []prebuilt.AgentOption[*chat]{prebuilt.WithStructuredOutput(setAnswer)},
			replies: []sgrtest.Reply{sgrtest.Text("Sunny."), sgrtest.ToolCall(prebuilt.ResponseToolName, `{"city":"Oslo","temp":21}`),
				sgrtest.ToolCall(prebuilt.ResponseToolName, `{"city":"Oslo","temp_c":21}`)},
			choices: []string{"auto", "required", "required"}, answer: &weather{City: "Oslo", TempC: 21},
			check: func(t *testing.T, reqs []sgrtest.Request) {
				got := roles(reqs[2].Messages)
				assert.Contains(t, got[len(got)-1], "tool final_response: error: required field(s) missing: temp_c. Call final_response again")
			}},
		{name: "structured output that never fits fails the run",
			opts: []prebuilt.AgentOption[*chat]{prebuilt.WithStructuredOutput(setAnswer)},
			replies: []sgrtest.Reply{sgrtest.Text("Sunny."), sgrtest.ToolCall(prebuilt.ResponseToolName, `{"city":"Oslo","temp_c":21,"wind":3}`),
				sgrtest.Text("no")},
			err: `structured output: no valid final_response after 2 calls: the reply did not call final_response`},
		{name: "an unknown field is refused", opts: []prebuilt.AgentOption[*chat]{prebuilt.WithStructuredOutput(setAnswer)},
			replies: []sgrtest.Reply{sgrtest.Text("Sunny."), sgrtest.ToolCall(prebuilt.ResponseToolName, `{"city":"Oslo","temp_c":21,"wind":3}`),
				sgrtest.ToolCall(prebuilt.ResponseToolName, `{"city":"Oslo","temp_c":"warm"}`)},
			err: `the arguments do not fit: json: cannot unmarshal string into Go struct field weather.temp_c of type float64`,
			check: func(t *testing.T, reqs []sgrtest.Request) {
				got := roles(reqs[2].Messages)
				assert.Contains(t, got[len(got)-1], `json: unknown field "wind"`)
			}},
		{name: "a model failure fails the run", replies: []sgrtest.Reply{sgrtest.Fail(errors.New("rate limited"))}, err: "model: rate limited"},
		{name: "a pre-model hook runs before each call",
			opts: []prebuilt.AgentOption[*chat]{prebuilt.WithPreModelHook(func(_ context.Context, s *chat) (*chat, error) {
				s.Notes = append(s.Notes, "hook")
				return s, nil
			})},
			replies: []sgrtest.Reply{oslo, sgrtest.Text("Sunny.")}, choices: []string{"auto", "auto"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := sgrtest.NewScriptedModel(tc.replies...)
			r, err := prebuilt.NewAgent[*chat](ctx, m, []tool.BaseTool{forecastTool(t)}, tc.opts...)
			require.NoError(t, err)
			out, err := r.Invoke(ctx, user("weather in Oslo?"))
			reqs := m.Requests()
			if tc.check != nil {
				tc.check(t, reqs)
			}
			if tc.err != "" {
				assert.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			if tc.want != nil {
				assert.Equal(t, tc.want, roles(out.Messages))
			}
			var choices []string
			for _, r := range reqs {
				choices = append(choices, r.ToolChoice)
			}
			assert.Equal(t, tc.choices, choices)
			assert.Equal(t, tc.answer, out.Answer)
			if strings.Contains(tc.name, "hook") {
				assert.Equal(t, []string{"hook", "hook"}, out.Notes)
			}
		})
	}
}

func TestAgentRefuses(t *testing.T) {
	ctx := context.Background()
	m := sgrtest.NewScriptedModel()
	for _, tc := range []struct {
		name string
		opts []prebuilt.AgentOption[*chat]
		want string
	}{
		{"no iterations", []prebuilt.AgentOption[*chat]{prebuilt.WithMaxIterations[*chat](0)}, "max iterations must be at least 1, got 0"},
		{"a forced tool it does not have", []prebuilt.AgentOption[*chat]{prebuilt.WithForcedFirstToolCall[*chat]("search")}, "the forced first call names tool search"},
		{"approval of a tool it does not have", []prebuilt.AgentOption[*chat]{prebuilt.WithApprovalBefore[*chat]("delete")}, "an option names tool delete"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := prebuilt.NewAgent[*chat](ctx, m, []tool.BaseTool{forecastTool(t)}, tc.opts...)
			assert.ErrorContains(t, err, tc.want)
		})
	}
	_, err := prebuilt.NewAgent[*chat](ctx, nil, nil)
	assert.ErrorContains(t, err, "nil model")
}

// TestAgentCounts checks that a turn's iterations start at its user
// message: an earlier turn's calls do not count.
func TestAgentCountsTheTurn(t *testing.T) {
	ctx := context.Background()
	m := sgrtest.NewScriptedModel(sgrtest.ToolCall("forecast", `{"city":"Rome"}`), sgrtest.Text("Warm."))
	r, err := prebuilt.NewAgent(ctx, m, []tool.BaseTool{forecastTool(t)}, prebuilt.WithMaxIterations[*chat](2))
	require.NoError(t, err)
	in := asking(call("1", "forecast", `{"city":"Oslo"}`))
	in.Messages = append(in.Messages, schema.ToolMessage("sunny", "1"), schema.AssistantMessage("Sunny.", nil), schema.UserMessage("and Rome?"))
	_, err = r.Invoke(ctx, in)
	require.NoError(t, err)
	assert.Equal(t, "auto", m.Requests()[0].ToolChoice, "a new turn may call tools again")
	assert.Equal(t, "none", m.Requests()[1].ToolChoice)
}

func TestAgentStreamsTokens(t *testing.T) {
	ctx := context.Background()
	m := sgrtest.NewScriptedModel(sgrtest.Chunks("Sun", "ny ", "today."))
	agent, err := prebuilt.NewAgent[*chat](ctx, m, []tool.BaseTool{forecastTool(t)})
	require.NoError(t, err)
	parent, err := graph.New[*chat]("assistant").
		AddNode("research", graph.Subgraph(agent)).
		AddEdge(graph.START, "research").AddEdge("research", graph.END).
		Compile(ctx)
	require.NoError(t, err)
	var tokens, paths []string
	var final *chat
	for c, err := range parent.Stream(ctx, user("weather?"), graph.WithStreamModes(graph.StreamMessages)) {
		require.NoError(t, err)
		switch c.Mode {
		case graph.StreamMessages:
			tokens = append(tokens, c.Message.(*schema.Message).Content)
			paths = append(paths, c.Path)
		case graph.StreamEnd:
			final = c.State
		}
	}
	assert.Equal(t, []string{"Sun", "ny ", "today."}, tokens)
	assert.Equal(t, []string{"research/agent", "research/agent", "research/agent"}, paths)
	require.NotNil(t, final)
	assert.Equal(t, []string{"user: weather?", "assistant: Sunny today."}, roles(final.Messages))
}

func TestAgentApproval(t *testing.T) {
	ctx := context.Background()
	type sent struct{ To, Text string }
	var outbox []sent
	send, err := prebuilt.NewTool("send_email", "Sends an email.", func(_ context.Context, in struct {
		To   string `json:"to"`
		Text string `json:"text"`
	}) (string, error) {
		outbox = append(outbox, sent{in.To, in.Text})
		return "sent to " + in.To, nil
	})
	require.NoError(t, err)
	email := sgrtest.ToolCall("send_email", `{"to":"ann@example.com","text":"hi"}`)
	for _, tc := range []struct {
		name     string
		replies  []sgrtest.Reply
		answers  []prebuilt.Decision
		want     []string
		outbox   []sent
		subgraph bool
	}{
		{name: "approved", replies: []sgrtest.Reply{email, sgrtest.Text("Sent.")}, answers: []prebuilt.Decision{prebuilt.Approve()},
			want:   []string{"user: write to Ann", "assistant send_email", "tool send_email: sent to ann@example.com", "assistant: Sent."},
			outbox: []sent{{"ann@example.com", "hi"}}},
		{name: "edited", replies: []sgrtest.Reply{email, sgrtest.Text("Sent.")},
			answers: []prebuilt.Decision{prebuilt.Edit(`{"to":"bob@example.com","text":"hi"}`)},
			want:    []string{"user: write to Ann", "assistant send_email", "tool send_email: sent to bob@example.com", "assistant: Sent."},
			outbox:  []sent{{"bob@example.com", "hi"}}},
		{name: "rejected", replies: []sgrtest.Reply{email, sgrtest.Text("I did not send it.")}, answers: []prebuilt.Decision{prebuilt.Reject("not today")},
			want: []string{"user: write to Ann", "assistant send_email",
				"tool send_email: The call was rejected by the user: not today. It did not run.", "assistant: I did not send it."}},
		{name: "two calls, asked one after the other",
			replies: []sgrtest.Reply{sgrtest.ToolCalls(
				schema.ToolCall{Function: schema.FunctionCall{Name: "send_email", Arguments: `{"to":"a@x","text":"1"}`}},
				schema.ToolCall{Function: schema.FunctionCall{Name: "forecast", Arguments: `{"city":"Oslo"}`}},
				schema.ToolCall{Function: schema.FunctionCall{Name: "send_email", Arguments: `{"to":"b@x","text":"2"}`}}),
				sgrtest.Text("Done.")},
			answers: []prebuilt.Decision{prebuilt.Reject(""), prebuilt.Approve()},
			want: []string{"user: write to Ann", "assistant send_email forecast send_email", "tool send_email: The call was rejected by the user. It did not run.",
				"tool forecast: sunny in Oslo, 21°C", "tool send_email: sent to b@x", "assistant: Done."},
			outbox: []sent{{"b@x", "2"}}},
		{name: "inside a parent graph", subgraph: true, replies: []sgrtest.Reply{email, sgrtest.Text("Sent.")}, answers: []prebuilt.Decision{prebuilt.Approve()},
			want:   []string{"user: write to Ann", "assistant send_email", "tool send_email: sent to ann@example.com", "assistant: Sent."},
			outbox: []sent{{"ann@example.com", "hi"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			outbox = nil
			m := sgrtest.NewScriptedModel(tc.replies...)
			store := checkpoint.NewMemory()
			r, err := prebuilt.NewAgent(ctx, m, []tool.BaseTool{send, forecastTool(t)}, prebuilt.WithApprovalBefore[*chat]("send_email"),
				prebuilt.WithCompileOptions[*chat](graph.WithCheckpointer(store)))
			require.NoError(t, err)
			if tc.subgraph {
				r, err = graph.New[*chat]("assistant").AddNode("helper", graph.Subgraph(r)).
					AddEdge(graph.START, "helper").AddEdge("helper", graph.END).
					Compile(ctx, graph.WithCheckpointer(store))
				require.NoError(t, err)
			}
			_, err = r.Invoke(ctx, user("write to Ann"), graph.WithThread("t"))
			var out *chat
			for i, d := range tc.answers {
				var paused *graph.InterruptError
				require.ErrorAs(t, err, &paused, "pause %d", i+1)
				assert.Contains(t, paused.Pending().Node, prebuilt.ToolsNode)
				assert.Contains(t, string(paused.Pending().Payload), `"tool":"send_email"`)
				assert.Empty(t, outbox, "nothing is sent before every call is decided")
				out, err = r.Resume(ctx, "t", d)
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, roles(out.Messages))
			assert.Equal(t, tc.outbox, outbox)
			assert.Len(t, m.Requests(), 2, "a resume does not call the model again")
			if tc.name == "edited" {
				assert.JSONEq(t, `{"to":"bob@example.com","text":"hi"}`, out.Messages[1].ToolCalls[0].Function.Arguments,
					"the call shows the arguments it ran with")
			}
		})
	}
	t.Run("an unknown action fails the node", func(t *testing.T) {
		m := sgrtest.NewScriptedModel(email)
		r, err := prebuilt.NewAgent(ctx, m, []tool.BaseTool{send}, prebuilt.WithApprovalBefore[*chat]("send_email"),
			prebuilt.WithCompileOptions[*chat](graph.WithCheckpointer(checkpoint.NewMemory())))
		require.NoError(t, err)
		_, err = r.Invoke(ctx, user("write"), graph.WithThread("t"))
		require.Error(t, err)
		_, err = r.Resume(ctx, "t", prebuilt.Decision{Action: "maybe"})
		assert.ErrorContains(t, err, `the decision's action is "maybe", not approve, edit or reject`)
	})
	t.Run("without a thread the node says so", func(t *testing.T) {
		m := sgrtest.NewScriptedModel(email)
		r, err := prebuilt.NewAgent(ctx, m, []tool.BaseTool{send}, prebuilt.WithApprovalBefore[*chat]("send_email"))
		require.NoError(t, err)
		_, err = r.Invoke(ctx, user("write"))
		assert.ErrorContains(t, err, "runs without a thread")
	})
}

// TestSummarizeAsPreModelHook runs an agent whose history is summarized
// before its model call, through a checkpointed thread: the summary is
// kept in the state and the next turn builds on it.
func TestSummarizeAsPreModelHook(t *testing.T) {
	ctx := context.Background()
	m := sgrtest.NewScriptedModel(sgrtest.Text("Summary: Ann likes Oslo."), sgrtest.Text("Oslo it is."))
	hook := prebuilt.SummarizeNode[*chat](prebuilt.SummarizeOptions{Model: m, MaxTokens: 40, KeepTokens: 10, Counter: tens})
	r, err := prebuilt.NewAgent[*chat](ctx, m, nil, prebuilt.WithPreModelHook(hook))
	require.NoError(t, err)
	in := &chat{MessagesState: prebuilt.MessagesState{Messages: append(conversation()[1:4:4], schema.AssistantMessage("a2", nil), schema.UserMessage("u3"))}}
	out, err := r.Invoke(ctx, in)
	require.NoError(t, err)
	assert.Equal(t, []string{"user: " + prebuilt.SummaryPrefix + "Summary: Ann likes Oslo.", "user: u3", "assistant: Oslo it is."}, roles(out.Messages))
	reqs := m.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, []string{"user: " + prebuilt.SummaryPrefix + "Summary: Ann likes Oslo.", "user: u3"}, roles(reqs[1].Messages),
		"the model answers from the summary")
}
