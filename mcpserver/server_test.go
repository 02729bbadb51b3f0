package mcpserver_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/mcpserver"
)

// connect serves a fresh server of the shared agent over the SDK's
// in-memory transport and returns a client session on it.
func connect(t *testing.T) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	s := mcpserver.New(shared, mcpserver.Options{Version: "test"})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	require.NoError(t, err)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil).Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

// call calls a tool and returns its result; a protocol error fails the test.
func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	require.NoError(t, err, "a tool's failure is a tool error, never a protocol error")
	return res
}

// text is the text content of a result, joined.
func text(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func TestListsTheThreeToolsWithInputSchemas(t *testing.T) {
	cs := connect(t)
	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	required := map[string]string{"ask": "question", "ask_structured": "question", "search_kb": "query"}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		b, err := json.Marshal(tool.InputSchema)
		require.NoError(t, err)
		var schema struct {
			Type       string                     `json:"type"`
			Required   []string                   `json:"required"`
			Properties map[string]json.RawMessage `json:"properties"`
		}
		require.NoError(t, json.Unmarshal(b, &schema))
		assert.Equal(t, "object", schema.Type, tool.Name)
		assert.Equal(t, []string{required[tool.Name]}, schema.Required, tool.Name)
		assert.NotEmpty(t, tool.Description, tool.Name)
		if tool.Name == "search_kb" {
			assert.JSONEq(t, `{"type":["null","integer"],"minimum":1,"maximum":20,"description":"how many articles to return, 1 to 20; 5 when omitted"}`,
				string(schema.Properties["top_k"]))
		} else {
			assert.Contains(t, string(schema.Properties["language"]), `"enum":["ru","en"]`, tool.Name)
			assert.Contains(t, schema.Properties, "session_id", tool.Name)
		}
	}
	assert.ElementsMatch(t, []string{"ask", "ask_structured", "search_kb"}, names)
}

func TestAskAnswersWithSources(t *testing.T) {
	res := call(t, connect(t), "ask", map[string]any{"question": "How do I configure the safety guard?"})
	require.False(t, res.IsError, text(res))
	assert.Contains(t, text(res), "[1]", "the answer cites the documentation")
	assert.Equal(t, 1, strings.Count(text(res), "Sources:"), "the sources are listed once:\n%s", text(res))
	assert.Nil(t, res.StructuredContent, "ask is the text a person reads")
}

func TestAskStructuredReturnsTheResult(t *testing.T) {
	res := call(t, connect(t), "ask_structured", map[string]any{"question": "How do I configure the safety guard?", "language": "en"})
	require.False(t, res.IsError, text(res))
	var got struct {
		Action  string `json:"action"`
		Answer  string `json:"answer"`
		Verdict struct {
			Verdict string `json:"verdict"`
		} `json:"verdict"`
		Evidence  []json.RawMessage `json:"evidence"`
		Decisions []json.RawMessage `json:"decisions"`
	}
	require.NoError(t, json.Unmarshal([]byte(text(res)), &got), "the text copy is the JSON")
	assert.Equal(t, "normal", got.Action)
	assert.Equal(t, "PASS", got.Verdict.Verdict)
	assert.Contains(t, got.Answer, "[1]")
	assert.NotEmpty(t, got.Evidence)
	assert.NotEmpty(t, got.Decisions)
	structured, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	assert.JSONEq(t, text(res), string(structured), "structured content and text carry the same result")
}

func TestSearchKBRanksArticles(t *testing.T) {
	res := call(t, connect(t), "search_kb", map[string]any{"query": "decision table hit policy", "top_k": 3})
	require.False(t, res.IsError, text(res))
	var got mcpserver.SearchOutput
	require.NoError(t, json.Unmarshal([]byte(text(res)), &got))
	require.NotEmpty(t, got.Articles)
	assert.LessOrEqual(t, len(got.Articles), 3)
	first := got.Articles[0]
	assert.Equal(t, "decision-tables", first.KBID)
	assert.NotEmpty(t, first.Title)
	assert.NotEmpty(t, first.BestChunk)
	assert.Positive(t, first.Score)
	assert.True(t, got.Confidence.LikelyRelevant)
}

func TestTablesAreResources(t *testing.T) {
	cs := connect(t)
	ctx := context.Background()
	list, err := cs.ListResources(ctx, nil)
	require.NoError(t, err)
	var uris []string
	for _, r := range list.Resources {
		uris = append(uris, r.URI)
		assert.Equal(t, "text/markdown", r.MIMEType, r.URI)
	}
	assert.Equal(t, []string{"table://DT-001", "table://DT-002", "table://DT-003", "table://DT-004", "table://DT-005", "table://DT-006"}, uris)

	read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "table://DT-002"})
	require.NoError(t, err)
	require.Len(t, read.Contents, 1)
	assert.Equal(t, "text/markdown", read.Contents[0].MIMEType)
	assert.Contains(t, read.Contents[0].Text, "### DT-002")
	assert.Contains(t, read.Contents[0].Text, "Hit policy")

	_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "table://DT-999"})
	assert.Error(t, err, "an unknown table is not found")
}

func TestBadArgumentsAreToolErrors(t *testing.T) {
	cs := connect(t)
	long := strings.Repeat("a", agent.MaxMessageRunes+1)
	tests := []struct {
		name string
		tool string
		args map[string]any
		want []string // pieces of the message: the field, and its limit
	}{
		{"empty question", "ask", map[string]any{"question": "   "}, []string{"question", "empty"}},
		{"missing question", "ask", map[string]any{}, []string{"question"}},
		{"over-long question", "ask", map[string]any{"question": long}, []string{"question", "16000"}},
		{"over-long question, structured", "ask_structured", map[string]any{"question": long}, []string{"question", "16000"}},
		{"bad language", "ask", map[string]any{"question": "hello", "language": "de"}, []string{"language", "ru", "en"}},
		{"bad language, structured", "ask_structured", map[string]any{"question": "hello", "language": "de"}, []string{"language"}},
		{"no threads kept", "ask", map[string]any{"question": "hello", "session_id": "s1"}, []string{"session_id", "keeps no conversations"}},
		{"top_k 0", "search_kb", map[string]any{"query": "guard", "top_k": 0}, []string{"top_k", "1", "20"}},
		{"top_k 21", "search_kb", map[string]any{"query": "guard", "top_k": 21}, []string{"top_k", "20"}},
		{"top_k not a number", "search_kb", map[string]any{"query": "guard", "top_k": "many"}, []string{"top_k"}},
		{"unknown argument", "search_kb", map[string]any{"query": "guard", "limit": 3}, []string{`"limit" is not an argument`}},
		{"empty query", "search_kb", map[string]any{"query": ""}, []string{"query", "empty"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := call(t, cs, tc.tool, tc.args)
			require.True(t, res.IsError, "got a result: %s", text(res))
			for _, w := range tc.want {
				assert.Contains(t, text(res), w)
			}
		})
	}
}

func TestStreamableHTTP(t *testing.T) {
	srv := httptest.NewServer(mcpserver.HTTPHandler(mcpserver.New(shared, mcpserver.Options{}), nil))
	defer srv.Close()
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL, DisableStandaloneSSE: true}, nil)
	require.NoError(t, err)
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	assert.Len(t, tools.Tools, 3)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_kb", Arguments: map[string]any{"query": "decision table hit policy"}})
	require.NoError(t, err)
	require.False(t, res.IsError, text(res))
	var got mcpserver.SearchOutput
	require.NoError(t, json.Unmarshal([]byte(text(res)), &got))
	require.NotEmpty(t, got.Articles)
	assert.Equal(t, "decision-tables", got.Articles[0].KBID)
	assert.LessOrEqual(t, len(got.Articles), 5, "the default top_k")
}

// TestSessionIDContinuesAThread: on an agent with a store, session_id
// keeps the conversation, so a clarified question is answered next turn.
// The agent shares the package agent's knowledge base: nothing is
// indexed again.
func TestSessionIDContinuesAThread(t *testing.T) {
	ctx := context.Background()
	store := checkpoint.NewMemory()
	a, err := agent.New(ctx, config.Default(), agent.Options{Knowledge: shared.Knowledge(), Store: store})
	require.NoError(t, err)
	defer a.Close()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := mcpserver.New(a, mcpserver.Options{}).Connect(ctx, st, nil)
	require.NoError(t, err)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil).Connect(ctx, ct, nil)
	require.NoError(t, err)
	defer func() { cs.Close(); ss.Wait() }()

	type turn struct {
		SessionID string `json:"session_id"`
		Turn      int    `json:"turn"`
		Action    string `json:"action"`
	}
	var turns []turn
	for _, q := range []string{"it doesn't work", "the safety guard mode"} {
		res := call(t, cs, "ask_structured", map[string]any{"question": q, "session_id": "thread-1"})
		require.False(t, res.IsError, text(res))
		var got turn
		require.NoError(t, json.Unmarshal([]byte(text(res)), &got))
		turns = append(turns, got)
	}
	assert.Equal(t, "clarify", turns[0].Action)
	assert.Equal(t, "thread-1", turns[1].SessionID)
	assert.Equal(t, 2, turns[1].Turn, "the second call continues the thread")
	assert.Equal(t, "normal", turns[1].Action)
}

// addHeaders is a test double of a client's transport that sets headers.
type addHeaders map[string]string

func (h addHeaders) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h {
		r.Header.Set(k, v)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestHTTPSessionsBelongToTheirOwner: over HTTP, one owner's session_id
// names a thread of its own, and a client cannot claim another's by
// sending the header the handler uses inside.
func TestHTTPSessionsBelongToTheirOwner(t *testing.T) {
	ctx := context.Background()
	a, err := agent.New(ctx, config.Default(), agent.Options{Knowledge: shared.Knowledge(), Store: checkpoint.NewMemory()})
	require.NoError(t, err)
	defer a.Close()
	srv := httptest.NewServer(mcpserver.HTTPHandler(mcpserver.New(a, mcpserver.Options{}),
		func(r *http.Request) string { return r.Header.Get("X-Test-Owner") }))
	defer srv.Close()
	connect := func(headers addHeaders) *mcp.ClientSession {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil).Connect(ctx,
			&mcp.StreamableClientTransport{Endpoint: srv.URL, DisableStandaloneSSE: true, HTTPClient: &http.Client{Transport: headers}}, nil)
		require.NoError(t, err)
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	alice := connect(addHeaders{"X-Test-Owner": "alice"})
	bob := connect(addHeaders{"X-Test-Owner": "bob", "X-Sgrgraph-Session-Owner": "alice"})
	turnOf := func(cs *mcp.ClientSession) int {
		res := call(t, cs, "ask_structured", map[string]any{"question": "How do I configure the safety guard?", "session_id": "s"})
		require.False(t, res.IsError, text(res))
		var got struct{ Turn int }
		require.NoError(t, json.Unmarshal([]byte(text(res)), &got))
		return got.Turn
	}
	assert.Equal(t, 1, turnOf(alice))
	assert.Equal(t, 1, turnOf(bob), "bob's session s is not alice's")
	assert.Equal(t, 2, turnOf(alice))
	assert.Equal(t, 2, turnOf(bob))
}
