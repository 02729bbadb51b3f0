package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/contracts"
)

// shortMemoryAgent is an agent whose model carries little of a
// conversation (agent.history_tokens): a thread longer than that must
// still show every turn.
func shortMemoryAgent(t *testing.T) *agent.Agent {
	t.Helper()
	store := checkpoint.NewMemory()
	cfg := config.Default()
	cfg.KB.CacheDir = t.TempDir()
	cfg.Agent.HistoryTokens = 300
	a, err := agent.New(context.Background(), cfg, agent.Options{Knowledge: offline.Knowledge(), Store: store})
	require.NoError(t, err)
	t.Cleanup(func() { a.Close(); store.Close() })
	return a
}

// askResult runs one turn of a session and returns its result.
func askResult(t *testing.T, url, key, session, message string) contracts.StructuredResult {
	t.Helper()
	body, err := json.Marshal(map[string]string{"message": message, "session_id": session, "language": "en"})
	require.NoError(t, err)
	res := post(t, url+"/v1/turns", key, string(body))
	require.Equal(t, http.StatusOK, res.StatusCode)
	var r contracts.StructuredResult
	require.NoError(t, json.NewDecoder(res.Body).Decode(&r))
	return r
}

func readThread(t *testing.T, url, key, session, query string) threadView {
	t.Helper()
	res := get(t, url+"/v1/threads/"+session+query, key)
	require.Equal(t, http.StatusOK, res.StatusCode)
	var v threadView
	require.NoError(t, json.NewDecoder(res.Body).Decode(&v))
	return v
}

// citationMark is a citation [n] in an answer.
var citationMark = regexp.MustCompile(`\[(\d{1,4})\]`)

// recordQuestions are questions whose answers cite the documentation.
var recordQuestions = []string{
	"How do I configure the safety guard?", "What does report mode do?", "How do I run a batch?",
	"What is a decision table?", "How do I keep conversations as threads?", "How do I serve the web chat?",
	"How do I configure the safety guard?", "What does the Guardian check?", "How do I run an eval?",
	"How do I use the OpenAI provider?",
}

// TestThreadShowsEveryTurnAsSent: the thread is the record of what was
// said. Ten turns, more than the model's window carries; each turn shows
// the answer as the client received it (renumbered citations and the
// sources list), its verdict and its sources; pages go back to the first.
func TestThreadShowsEveryTurnAsSent(t *testing.T) {
	a := shortMemoryAgent(t)
	ts := serve(t, a, Options{APIKeys: []string{"k"}, Sessions: true})
	var sent []contracts.StructuredResult
	for _, q := range recordQuestions {
		sent = append(sent, askResult(t, ts.URL, "k", "long", q))
	}

	all := readThread(t, ts.URL, "k", "long", "?limit=100")
	require.Len(t, all.Turns, len(recordQuestions), "every turn, not the model's window")
	assert.Empty(t, all.Cursor, "nothing before the first turn")
	assert.False(t, all.HasMore)
	require.Len(t, all.Messages, 2*len(recordQuestions))
	cited := 0
	for i, turn := range all.Turns {
		assert.Equal(t, i+1, turn.Turn)
		assert.Equal(t, agent.TurnAnswered, turn.Status)
		assert.Equal(t, recordQuestions[i], turn.Question)
		assert.Equal(t, sent[i].Answer, turn.Answer, "turn %d: the answer as the client got it", i+1)
		assert.Equal(t, sent[i].UI, turn.UI, "turn %d", i+1)
		require.NotNil(t, turn.Verdict, "turn %d", i+1)
		assert.Equal(t, sent[i].Verdict.Verdict, turn.Verdict.Verdict)
		assert.Equal(t, turn.Answer, all.Messages[2*i+1].Content)
		// Every citation the answer shows names a source of its list.
		for _, m := range citationMark.FindAllStringSubmatch(turn.Answer, -1) {
			var n int
			fmt.Sscan(m[1], &n)
			assert.True(t, n >= 1 && n <= len(turn.Sources), "turn %d: [%d] with %d sources", i+1, n, len(turn.Sources))
			cited++
		}
		for j, s := range turn.Sources {
			assert.Equal(t, j+1, s.N)
			assert.Equal(t, sent[i].Articles[j].Title, s.Title)
		}
	}
	assert.Positive(t, cited, "the answers cite their sources")

	// Pages of three, newest first, each oldest first inside.
	var paged []int
	cursor := ""
	for range 10 {
		page := readThread(t, ts.URL, "k", "long", "?limit=3&cursor="+cursor)
		var nums []int
		for _, turn := range page.Turns {
			nums = append(nums, turn.Turn)
		}
		paged = append(nums, paged...)
		if !page.HasMore {
			assert.Empty(t, page.Cursor)
			break
		}
		cursor = page.Cursor
	}
	assert.Equal(t, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, paged)

	res := get(t, ts.URL+"/v1/threads/long?cursor=junk", "k")
	assert.Equal(t, http.StatusBadRequest, res.StatusCode)
	_, _, param, _ := errorOf(t, res)
	assert.Equal(t, "cursor", param)
}
