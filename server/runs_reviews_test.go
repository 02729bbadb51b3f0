package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/mcpserver"
	"github.com/sgrgraph/sgrgraph/runs"
	"github.com/sgrgraph/sgrgraph/sgrtest/servers"
)

// resumed answers the review a reviewer found in GET /v1/reviews, naming
// it as the list does, and returns the turn's end.
func resumed(t *testing.T, url, threadID, interruptID string) contracts.StructuredResult {
	t.Helper()
	var listed *reviewItem
	for _, r := range listReviews(t, url, "reviewer").Data {
		if r.ThreadID == threadID {
			listed = &r
		}
	}
	require.NotNil(t, listed, "GET /v1/reviews lists thread %s", threadID)
	assert.Equal(t, interruptID, listed.InterruptID)
	assert.Equal(t, failedDraft, listed.Draft)
	res := post(t, url+"/v1/threads/"+threadID+"/resume", "reviewer", resumeBody(interruptID, "approve", "", "checked"))
	require.Equal(t, http.StatusOK, res.StatusCode)
	out := decodeAs[contracts.StructuredResult](t, res)
	assert.Contains(t, out.Answer, failedDraft)
	require.NotNil(t, out.Review)
	assert.Equal(t, "approve", out.Review.Decision)
	for _, r := range listReviews(t, url, "reviewer").Data {
		assert.NotEqual(t, threadID, r.ThreadID, "the answered review no longer waits")
	}
	return out
}

// TestMCPAskHeldForReview: an MCP ask whose draft is held returns no
// answer but an error result saying it waits, with the thread and
// interrupt a reviewer lists in GET /v1/reviews and resumes over HTTP.
func TestMCPAskHeldForReview(t *testing.T) {
	a := reviewingAgent(t)
	ts := serve(t, a, Options{APIKeys: []string{"asker"}, ReviewerKeys: []string{"reviewer"}, Sessions: true,
		MCP: mcpserver.HTTPHandler(mcpserver.New(a, mcpserver.Options{}), KeyOf)})
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp", DisableStandaloneSSE: true, HTTPClient: &http.Client{Transport: bearer("asker")}}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })

	for _, tc := range []struct {
		name, tool, session, thread string // thread: the prefix of the thread_id
	}{
		{"ask without a session", "ask", "", "~review-"},
		{"ask_structured in a session", "ask_structured", "m1", keyIDOf("asker") + "~m1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := map[string]any{"question": "How do I set the guard mode?"}
			if tc.session != "" {
				args["session_id"] = tc.session
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tc.tool, Arguments: args})
			require.NoError(t, err)
			require.True(t, res.IsError, "a held draft is no answer")
			var text string
			for _, c := range res.Content {
				if tc, ok := c.(*mcp.TextContent); ok {
					text += tc.Text
				}
			}
			assert.Contains(t, text, "waits for a person's review")
			assert.NotContains(t, text, failedDraft, "the draft is not released")
			b, err := json.Marshal(res.StructuredContent)
			require.NoError(t, err)
			var held struct {
				Status      string `json:"status"`
				ThreadID    string `json:"thread_id"`
				InterruptID string `json:"interrupt_id"`
				Turn        int    `json:"turn"`
			}
			require.NoError(t, json.Unmarshal(b, &held))
			assert.Equal(t, "interrupted", held.Status)
			assert.True(t, strings.HasPrefix(held.ThreadID, tc.thread), held.ThreadID)
			require.NotEmpty(t, held.InterruptID)
			assert.Equal(t, 1, held.Turn)
			assert.Contains(t, text, held.ThreadID)
			assert.Contains(t, text, held.InterruptID)
			resumed(t, ts.URL, held.ThreadID, held.InterruptID)
			if tc.session != "" {
				th := readThread(t, ts.URL, "asker", tc.session, "")
				require.Len(t, th.Turns, 1)
				assert.Equal(t, agent.TurnAnswered, th.Turns[0].Status, "the asker reads the outcome on the conversation")
			}
		})
	}
}

// TestWorkerRunHeldForReview: a run whose draft is held ends interrupted,
// with the interrupt on the run and as its stream's last event; the
// review shows in GET /v1/reviews, and a resume on the server continues
// the turn.
func TestWorkerRunHeldForReview(t *testing.T) {
	a := reviewingAgent(t)
	q, err := runs.Open(context.Background(), servers.Redis(t), runs.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { q.Close() })
	ctx, stop := context.WithCancel(context.Background())
	worked := make(chan error, 1)
	go func() { worked <- runs.Worker{Queue: q, Handler: a}.Work(ctx) }()
	t.Cleanup(func() { stop(); <-worked })
	url := serve(t, a, Options{APIKeys: []string{"asker"}, ReviewerKeys: []string{"reviewer"}, Sessions: true, Runs: q}).URL

	for _, tc := range []struct{ name, body, thread string }{
		{"without a session", `{"message":"How do I set the guard mode?"}`, "~review-"},
		{"in a session", `{"message":"How do I set the guard mode?","session_id":"w1"}`, keyIDOf("asker") + "~w1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := submitted(t, url, "asker", tc.body)
			require.Equal(t, "interrupted", run.Status, run.Error)
			assert.Nil(t, run.Result)
			assert.Empty(t, run.Error)
			require.NotNil(t, run.Interrupt)
			assert.True(t, strings.HasPrefix(run.Interrupt.ThreadID, tc.thread), run.Interrupt.ThreadID)
			require.NotEmpty(t, run.Interrupt.InterruptID)
			assert.Equal(t, 1, run.Interrupt.Turn)

			evs := sseEvents(t, get(t, url+"/v1/runs/"+run.ID+"/events", "asker"))
			require.GreaterOrEqual(t, len(evs), 3)
			last := evs[len(evs)-2]
			assert.Equal(t, "interrupted", last.name, "the stream ends with the pause")
			assert.Contains(t, last.data, run.Interrupt.InterruptID)
			assert.Equal(t, "[DONE]", evs[len(evs)-1].data)

			resumed(t, url, run.Interrupt.ThreadID, run.Interrupt.InterruptID)
			if strings.HasSuffix(tc.thread, "~w1") {
				th := readThread(t, url, "asker", "w1", "")
				require.Len(t, th.Turns, 1)
				assert.Equal(t, agent.TurnAnswered, th.Turns[0].Status)
			}
		})
	}
}
