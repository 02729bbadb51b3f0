package openaitest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/cloudwego/eino/schema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/sgrtest"
)

func TestConcurrentRequestsGetDistinctNumbers(t *testing.T) {
	var mu sync.Mutex
	seen := map[int]bool{}
	srv := New(sgrtest.NewScriptedModel(sgrtest.Text("ok")).Repeat(), WithFaults(func(r Request) Fault {
		mu.Lock()
		defer mu.Unlock()
		assert.False(t, seen[r.N], "request number %d given twice", r.N)
		seen[r.N] = true
		return Fault{}
	}))
	defer srv.Close()
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := http.Post(srv.URL+"/chat/completions", "application/json",
				strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"hi"}]}`))
			if assert.NoError(t, err) {
				resp.Body.Close()
				assert.Equal(t, http.StatusOK, resp.StatusCode)
			}
		}()
	}
	wg.Wait()
	assert.Len(t, seen, 20)
	require.Len(t, srv.Requests(), 20)
}

func TestHalvesKeepCharactersWhole(t *testing.T) {
	for _, s := range []string{`{"query":"xфильтр"}`, "я", "", `{"q":"a"}`} {
		parts := halves(s)
		assert.Equal(t, s, strings.Join(parts, ""))
		for _, p := range parts {
			assert.True(t, utf8.ValidString(p), "%q", p)
		}
	}
}

func TestStreamEnds(t *testing.T) {
	tests := []struct {
		name  string
		fault Fault
		check func(t *testing.T, body string, err error)
	}{
		{"whole", Fault{}, func(t *testing.T, body string, err error) {
			require.NoError(t, err)
			assert.Contains(t, body, `"finish_reason":"stop"`)
			assert.True(t, strings.HasSuffix(body, "data: [DONE]\n\n"))
		}},
		{"closed after two chunks ends cleanly, unfinished", Fault{CloseAfter: 2}, func(t *testing.T, body string, err error) {
			require.NoError(t, err, "to the client the body simply ends")
			assert.Equal(t, 2, strings.Count(body, "data: "))
			assert.NotContains(t, body, `"finish_reason":"`)
			assert.NotContains(t, body, "[DONE]")
		}},
		{"closed after ten bytes ends in the middle of a line", Fault{CloseAfterBytes: 10}, func(t *testing.T, body string, err error) {
			require.NoError(t, err)
			assert.Equal(t, `data: {"id`, body)
		}},
		{"closed after more chunks than there are is whole", Fault{CloseAfter: 100}, func(t *testing.T, body string, err error) {
			require.NoError(t, err)
			assert.True(t, strings.HasSuffix(body, `"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n"), body)
		}},
		{"dropped after two chunks breaks the body", Fault{DropAfter: 2}, func(t *testing.T, body string, err error) {
			require.Error(t, err)
			assert.Equal(t, 2, strings.Count(body, "data: "))
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := New(sgrtest.NewScriptedModel(sgrtest.Text("Set the guard mode.")), WithFaults(func(Request) Fault { return tc.fault }))
			defer srv.Close()
			resp, err := http.Post(srv.URL+"/chat/completions", "application/json",
				strings.NewReader(`{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`))
			require.NoError(t, err)
			defer resp.Body.Close()
			assert.Equal(t, http.StatusOK, resp.StatusCode)
			assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
			body, err := io.ReadAll(resp.Body)
			tc.check(t, string(body), err)
		})
	}
}

func TestEventsSpellAWholeReply(t *testing.T) {
	reply := schema.AssistantMessage("Two words", []schema.ToolCall{{ID: "c1", Function: schema.FunctionCall{Name: "search_kb", Arguments: `{"query":"фильтр"}`}}})
	frames := Events(reply, &schema.TokenUsage{PromptTokens: 3, CompletionTokens: 2, TotalTokens: 5})
	require.Len(t, frames, 1+2+3+1+1+1, "role, two words, head and two halves, finish, usage, [DONE]")
	assert.Equal(t, "data: [DONE]\n\n", string(frames[len(frames)-1]))
	var text, args string
	for _, f := range frames[:len(frames)-1] {
		var c chatResponse
		require.NoError(t, json.Unmarshal(bytes.TrimSuffix(bytes.TrimPrefix(f, []byte("data: ")), []byte("\n\n")), &c))
		for _, ch := range c.Choices {
			if ch.Delta.Content != nil {
				text += *ch.Delta.Content
			}
			for _, tc := range ch.Delta.ToolCalls {
				args += tc.Function.Arguments
			}
		}
	}
	assert.Equal(t, reply.Content, text)
	assert.Equal(t, reply.ToolCalls[0].Function.Arguments, args)
	assert.Contains(t, string(frames[len(frames)-3]), `"finish_reason":"tool_calls"`)
	assert.Contains(t, string(frames[len(frames)-2]), `"total_tokens":5`)
}

func TestResetAnswersNothing(t *testing.T) {
	srv := New(sgrtest.NewScriptedModel(sgrtest.Text("never sent")), WithFaults(func(Request) Fault { return Fault{Reset: true} }))
	defer srv.Close()
	resp, err := http.Post(srv.URL+"/chat/completions", "application/json",
		strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"hi"}]}`))
	if resp != nil {
		resp.Body.Close()
	}
	require.Error(t, err)
	assert.Contains(t, err.Error(), "connection reset by peer")
	assert.Len(t, srv.Requests(), 1, "the request was read, then the connection reset")
}
