package prebuilt_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/prebuilt"
	"github.com/sgrgraph/sgrgraph/sgrtest"
)

func TestSummarize(t *testing.T) {
	ctx := context.Background()
	long := threeTurns()
	for _, tc := range []struct {
		name    string
		in      []*schema.Message
		opts    prebuilt.SummarizeOptions
		replies []sgrtest.Reply
		want    []string
		asked   string // the transcript the model was given
		err     string
	}{
		{name: "within the budget: untouched, no call", in: conversation(), opts: prebuilt.SummarizeOptions{MaxTokens: 80, Counter: tens},
			want: roles(conversation())},
		{name: "the older turns are folded, the newest kept", in: long, opts: prebuilt.SummarizeOptions{MaxTokens: 90, KeepTokens: 20, Counter: tens},
			replies: []sgrtest.Reply{sgrtest.Text("  Ann asked twice; Oslo is sunny.  ")},
			want:    []string{"system: sys", "user: " + prebuilt.SummaryPrefix + "Ann asked twice; Oslo is sunny.", "user: u3", "assistant: a3"},
			asked: "The conversation to summarize:\nuser: u1\nassistant: a1\nuser: u2\nassistant called forecast({})\nassistant called forecast({})\n" +
				"tool forecast returned: r1\ntool forecast returned: r2\nassistant: a2\n"},
		{name: "KeepTokens defaults to half; the kept part starts on a user message", in: long, opts: prebuilt.SummarizeOptions{MaxTokens: 90, Counter: tens},
			replies: []sgrtest.Reply{sgrtest.Text("S")},
			want:    []string{"system: sys", "user: " + prebuilt.SummaryPrefix + "S", "user: u3", "assistant: a3"}},
		{name: "a tool call is kept with its answers", in: conversation(), opts: prebuilt.SummarizeOptions{MaxTokens: 60, KeepTokens: 40, Counter: tens},
			replies: []sgrtest.Reply{sgrtest.Text("S")},
			want:    []string{"system: sys", "user: " + prebuilt.SummaryPrefix + "S", "assistant forecast forecast", "tool forecast: r1", "tool forecast: r2", "assistant: a2"}},
		{name: "a tool call is folded with its answers", in: conversation(), opts: prebuilt.SummarizeOptions{MaxTokens: 60, KeepTokens: 20, Counter: tens},
			replies: []sgrtest.Reply{sgrtest.Text("S")},
			want:    []string{"system: sys", "user: " + prebuilt.SummaryPrefix + "S", "assistant: a2"}},
		{name: "an earlier summary is folded into the new one",
			in:      append([]*schema.Message{schema.SystemMessage("sys"), summaryMessage("before")}, long[1:]...),
			opts:    prebuilt.SummarizeOptions{MaxTokens: 90, KeepTokens: 20, Counter: tens},
			replies: []sgrtest.Reply{sgrtest.Text("S2")},
			want:    []string{"system: sys", "user: " + prebuilt.SummaryPrefix + "S2", "user: u3", "assistant: a3"},
			asked:   "The summary of what came before:\nbefore\n\nThe conversation to summarize:\nuser: u1\n"},
		{name: "the newest message is kept whatever its size", in: conversation()[:4], opts: prebuilt.SummarizeOptions{MaxTokens: 10, Counter: tens},
			replies: []sgrtest.Reply{sgrtest.Text("S")},
			want:    []string{"system: sys", "user: " + prebuilt.SummaryPrefix + "S", "user: u2"}},
		{name: "nothing older to fold", in: conversation()[:2], opts: prebuilt.SummarizeOptions{MaxTokens: 10, Counter: tens},
			want: []string{"system: sys", "user: u1"}},
		{name: "a model failure", in: long, opts: prebuilt.SummarizeOptions{MaxTokens: 10, Counter: tens},
			replies: []sgrtest.Reply{sgrtest.Fail(errors.New("down"))}, err: "summarize: model: down"},
		{name: "an empty summary", in: long, opts: prebuilt.SummarizeOptions{MaxTokens: 10, Counter: tens},
			replies: []sgrtest.Reply{sgrtest.Text(" ")}, err: "summarize: the model wrote an empty summary"},
		{name: "no budget", in: long, err: "summarize: MaxTokens must be positive, got 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := sgrtest.NewScriptedModel(tc.replies...)
			tc.opts.Model = m
			got, err := prebuilt.Summarize(ctx, tc.in, tc.opts)
			assert.Len(t, m.Requests(), len(tc.replies))
			if tc.err != "" {
				assert.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, roles(got))
			if tc.asked != "" {
				req := m.Requests()[0]
				assert.Equal(t, "system: "+prebuilt.DefaultSummaryPrompt, roles(req.Messages)[0])
				assert.Empty(t, req.Tools)
				assert.True(t, strings.HasPrefix(req.Messages[1].Content, tc.asked), "asked:\n%s", req.Messages[1].Content)
			}
			for _, msg := range got {
				if strings.HasPrefix(msg.Content, prebuilt.SummaryPrefix) {
					assert.Equal(t, true, msg.Extra[prebuilt.ExtraSummary])
				}
			}
		})
	}
	_, err := prebuilt.Summarize(ctx, long, prebuilt.SummarizeOptions{MaxTokens: 10})
	assert.ErrorContains(t, err, "summarize: no model")
}
