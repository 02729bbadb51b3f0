package openai

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/outbound"
	"github.com/sgrgraph/sgrgraph/sgrtest/openaitest"
)

type bodyKey struct{}

// cannedBody answers every request with the event stream its context
// carries, so one model decodes many streams with no server between.
type cannedBody struct{}

func (cannedBody) RoundTrip(r *http.Request) (*http.Response, error) {
	body, _ := r.Context().Value(bodyKey{}).([]byte)
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"text/event-stream"}},
		Body: io.NopCloser(bytes.NewReader(body)), Request: r}, nil
}

func cannedModel(t testing.TB) *Model {
	t.Helper()
	m, err := build(context.Background(), Config{BaseURL: "http://model.invalid/v1", Model: "m", Retry: outbound.Policy{Attempts: 1}},
		&http.Client{Transport: cannedBody{}})
	require.NoError(t, err)
	return m
}

// decode streams one reply from body.
func decode(m *Model, body []byte) (*schema.Message, error) {
	sr, err := m.Stream(context.WithValue(context.Background(), bodyKey{}, body), []*schema.Message{schema.UserMessage("q")})
	if err != nil {
		return nil, err
	}
	return schema.ConcatMessageStream(sr)
}

// FuzzStreamDecode decodes, when raw is empty, a stream spelled from the
// fuzzed text and tool-call arguments and cut at a fuzzed byte (the whole
// stream when the cut falls past its end); otherwise the raw bytes. A
// stream cut before its finish_reason line is whole is reported as cut;
// one cut after it gives back exactly its reply; raw bytes never panic,
// and are taken as a reply only when they said why they finished.
func FuzzStreamDecode(f *testing.F) {
	hostile := []string{
		"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n",
		"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"half an ans",
		"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"whole line, no end\"},\"finish_reason\":null}]}\n\n",
		"data: [DONE]\n\n",
		"data: {\"error\":{\"message\":\"overloaded\",\"type\":\"server_error\"}}\n\n",
		": keep-alive\n\nevent: ping\ndata: {}\n\ndata: {\"choices\":[{\"index\":1,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n",
		"data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"a\\\"\"}}]},\"finish_reason\":null}]}\n\n",
		"data:{\"choices\":[{\"index\":0,\"delta\":{\"role\":\"user\",\"content\":\"a\"}},{\"index\":0,\"delta\":{\"role\":\"assistant\"},\"finish_reason\":\"stop\"}]}\n\n",
		"data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":99999999999,\"function\":{\"arguments\":\"x\"}}]},\"finish_reason\":\"tool_calls\"}]}\n\n",
		"data: {\"choices\":null,\"usage\":{\"total_tokens\":-1}}\n\ndata: [DONE]\n\n",
		"\x00\xff\n\ndata: \xfe\n\n",
	}
	for _, h := range hostile {
		f.Add("", "", uint16(0), false, []byte(h))
	}
	f.Add("Set the mode with guard.mode [1].", "", uint16(40), true, []byte(nil))
	f.Add("Set the mode with guard.mode [1].", "", uint16(65535), true, []byte(nil))
	f.Add("", `{"query":"guard mode"}`, uint16(200), false, []byte(nil))
	f.Add("", `{"query":"guard mode"}`, uint16(1000), false, []byte(nil))
	f.Add("Как настроить фильтр?", `{"query":"фильтр"}`, uint16(9999), true, []byte(nil))
	f.Add("", "", uint16(0), false, []byte(nil))
	f.Add("a b  c\n\"d\" </script> \u2028", `{"q":"\u0000"}`, uint16(1), false, []byte(nil))
	f.Add("data: [DONE]", "data: [DONE]\n\n", uint16(77), false, []byte(nil))
	m := cannedModel(f)
	f.Fuzz(func(t *testing.T, content, args string, cut uint16, withUsage bool, raw []byte) {
		if len(raw) > 0 {
			got, err := decode(m, raw)
			if err != nil {
				require.Nil(t, got, "a failed decode yields no part of a reply")
				return
			}
			require.NotNil(t, got.ResponseMeta)
			require.NotEmpty(t, got.ResponseMeta.FinishReason, "raw bytes are a reply only with a finish_reason")
			return
		}
		content, args = strings.ToValidUTF8(content, "?"), strings.ToValidUTF8(args, "?")
		reply := schema.AssistantMessage(content, nil)
		if args != "" {
			reply.ToolCalls = []schema.ToolCall{{ID: "call_1", Function: schema.FunctionCall{Name: "search_kb", Arguments: args}}}
		}
		var usage *schema.TokenUsage
		finish := 2 // the finish chunk, counted from the end: then [DONE]
		if withUsage {
			usage, finish = &schema.TokenUsage{PromptTokens: 7, CompletionTokens: 5, TotalTokens: 12}, 3
		}
		frames := openaitest.Events(reply, usage)
		var stream []byte
		finished := 0 // the length of a prefix that holds the finish_reason line, its newline included
		for i, fr := range frames {
			if i == len(frames)-finish {
				finished = len(stream) + bytes.IndexByte(fr, '\n') + 1
			}
			stream = append(stream, fr...)
		}
		k := int(cut) % (len(stream) + 1)
		got, err := decode(m, stream[:k])
		if k < finished {
			var c *cutError
			require.ErrorAs(t, err, &c, "a stream cut at byte %d of %d, before its finish_reason at %d, is cut", k, len(stream), finished)
			require.Nil(t, got)
			return
		}
		require.NoError(t, err, "a stream cut at byte %d of %d, after its finish_reason, holds the whole reply", k, len(stream))
		same(t, reply, got)
		if withUsage && k == len(stream) {
			require.Equal(t, 12, got.ResponseMeta.Usage.TotalTokens, "the server's usage is kept")
		}
	})
}

func same(t *testing.T, want, got *schema.Message) {
	t.Helper()
	require.Equal(t, want.Content, got.Content)
	require.Len(t, got.ToolCalls, len(want.ToolCalls))
	for i := range want.ToolCalls {
		require.Equal(t, want.ToolCalls[i].ID, got.ToolCalls[i].ID)
		require.Equal(t, want.ToolCalls[i].Function.Name, got.ToolCalls[i].Function.Name)
		require.Equal(t, want.ToolCalls[i].Function.Arguments, got.ToolCalls[i].Function.Arguments)
	}
}
