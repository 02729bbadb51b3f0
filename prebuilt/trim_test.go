package prebuilt_test

import (
	"context"
	"testing"

	"github.com/cloudwego/eino/schema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/graph"
	"github.com/sgrgraph/sgrgraph/prebuilt"
)

// tens counts every message as 10 tokens.
func tens(ms []*schema.Message) int { return 10 * len(ms) }

// conversation: two turns, the second with a tool call.
func conversation() []*schema.Message {
	return []*schema.Message{
		schema.SystemMessage("sys"),
		schema.UserMessage("u1"),
		schema.AssistantMessage("a1", nil),
		schema.UserMessage("u2"),
		schema.AssistantMessage("", []schema.ToolCall{call("c1", "forecast", `{}`), call("c2", "forecast", `{}`)}),
		schema.ToolMessage("r1", "c1", schema.WithToolName("forecast")),
		schema.ToolMessage("r2", "c2", schema.WithToolName("forecast")),
		schema.AssistantMessage("a2", nil),
	}
}

func threeTurns() []*schema.Message {
	return append(conversation(), schema.UserMessage("u3"), schema.AssistantMessage("a3", nil))
}

func TestTrim(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []*schema.Message
		opts prebuilt.TrimOptions
		want []string
	}{
		{"all fit", conversation(), prebuilt.TrimOptions{MaxTokens: 80, Counter: tens},
			[]string{"system: sys", "user: u1", "assistant: a1", "user: u2", "assistant forecast forecast", "tool forecast: r1", "tool forecast: r2", "assistant: a2"}},
		{"the oldest turn goes, the system message stays", conversation(), prebuilt.TrimOptions{MaxTokens: 60, Counter: tens},
			[]string{"system: sys", "user: u2", "assistant forecast forecast", "tool forecast: r1", "tool forecast: r2", "assistant: a2"}},
		{"a tool call stays with its answers; with no user message kept, the rest starts where it does", conversation(), prebuilt.TrimOptions{MaxTokens: 50, Counter: tens},
			[]string{"system: sys", "assistant forecast forecast", "tool forecast: r1", "tool forecast: r2", "assistant: a2"}},
		{"the rest starts on a user message", threeTurns(), prebuilt.TrimOptions{MaxTokens: 60, Counter: tens},
			[]string{"system: sys", "user: u3", "assistant: a3"}},
		{"StartAnywhere keeps the answer before it", threeTurns(), prebuilt.TrimOptions{MaxTokens: 60, Counter: tens, StartAnywhere: true},
			[]string{"system: sys", "assistant: a2", "user: u3", "assistant: a3"}},
		{"a budget one message short drops the call and its answers whole", conversation(), prebuilt.TrimOptions{MaxTokens: 40, Counter: tens, StartAnywhere: true},
			[]string{"system: sys", "assistant: a2"}},
		{"nothing fits: the newest is kept", conversation(), prebuilt.TrimOptions{MaxTokens: 5, Counter: tens},
			[]string{"system: sys", "assistant: a2"}},
		{"nothing fits and the newest is a call: kept with its answers", conversation()[:7], prebuilt.TrimOptions{MaxTokens: 5, Counter: tens},
			[]string{"system: sys", "assistant forecast forecast", "tool forecast: r1", "tool forecast: r2"}},
		{"no system message", conversation()[1:], prebuilt.TrimOptions{MaxTokens: 50, Counter: tens},
			[]string{"user: u2", "assistant forecast forecast", "tool forecast: r1", "tool forecast: r2", "assistant: a2"}},
		{"a summary stays with the system message",
			append([]*schema.Message{schema.SystemMessage("sys"), summaryMessage("earlier")}, conversation()[1:]...),
			prebuilt.TrimOptions{MaxTokens: 70, Counter: tens},
			[]string{"system: sys", "user: " + prebuilt.SummaryPrefix + "earlier", "user: u2", "assistant forecast forecast", "tool forecast: r1", "tool forecast: r2", "assistant: a2"}},
		{"empty", nil, prebuilt.TrimOptions{MaxTokens: 10}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := append([]*schema.Message(nil), tc.in...)
			got := prebuilt.Trim(in, tc.opts)
			assert.Equal(t, tc.want, roles(got))
			assert.Equal(t, roles(tc.in), roles(in), "the input is left as it was")
		})
	}
}

func summaryMessage(text string) *schema.Message {
	m := schema.UserMessage(prebuilt.SummaryPrefix + text)
	m.Extra = map[string]any{prebuilt.ExtraSummary: true}
	return m
}

func TestCountTokens(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []*schema.Message
		want int
	}{
		{"none", nil, 0},
		{"four a message, and its text in o200k tokens", []*schema.Message{schema.UserMessage("hello world")}, 4 + 2},
		{"a tool call's name and arguments", []*schema.Message{schema.AssistantMessage("", []schema.ToolCall{call("1", "forecast", `{"city":"Oslo"}`)})}, 4 + 1 + 6},
		{"Russian", []*schema.Message{schema.UserMessage("привет, мир")}, 4 + 4},
	} {
		t.Run(tc.name, func(t *testing.T) { assert.Equal(t, tc.want, prebuilt.CountTokens(tc.in)) })
	}
}

func TestTrimNode(t *testing.T) {
	ctx := context.Background()
	r, err := graph.New[*chat]("trim").AddNode("trim", prebuilt.TrimNode[*chat](prebuilt.TrimOptions{MaxTokens: 60, Counter: tens})).
		AddEdge(graph.START, "trim").AddEdge("trim", graph.END).Compile(ctx)
	require.NoError(t, err)
	out, err := r.Invoke(ctx, &chat{MessagesState: prebuilt.MessagesState{Messages: conversation()}})
	require.NoError(t, err)
	assert.Equal(t, []string{"system: sys", "user: u2", "assistant forecast forecast", "tool forecast: r1", "tool forecast: r2", "assistant: a2"}, roles(out.Messages))

	bad, err := graph.New[*chat]("trim").AddNode("trim", prebuilt.TrimNode[*chat](prebuilt.TrimOptions{})).
		AddEdge(graph.START, "trim").AddEdge("trim", graph.END).Compile(ctx)
	require.NoError(t, err)
	_, err = bad.Invoke(ctx, user("hi"))
	assert.ErrorContains(t, err, "trim: MaxTokens must be positive, got 0")
}
