package server

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/sgrtest"
)

// failedDraft is the draft reviewingAgent's model writes: from memory,
// with no search, so the Guardian fails it and holds it for a person.
const failedDraft = "Set guard.mode to enforce."

// reviewingAgent is an agent whose every draft fails the Guardian
// (guardian.human_review: [fail]): each turn plans, then writes three
// drafts without searching; the third is held for review.
func reviewingAgent(t *testing.T) *agent.Agent {
	t.Helper()
	plan := contracts.SGRPlan{SpamScore: 0.05, SpamReason: "on topic", UserIntent: "set the guard mode", Topic: "safety guard",
		Category: "configuration", RequestType: contracts.RequestKnowledgeQA, AnswerLanguage: "en",
		Subqueries: []string{"safety guard mode"}, IntentConfidence: 0.9, Action: contracts.ActionNormal}
	planJSON, err := json.Marshal(plan)
	require.NoError(t, err)
	m := sgrtest.NewScriptedModel(sgrtest.ToolCall("analyse_user_request", string(planJSON)),
		sgrtest.Text("From memory."), sgrtest.Text("Still from memory."), sgrtest.Text(failedDraft)).Repeat()
	store := checkpoint.NewMemory()
	cfg := config.Default()
	cfg.KB.CacheDir = t.TempDir()
	cfg.Guardian.HumanReview = []string{contracts.ReviewOnFail}
	a, err := agent.New(context.Background(), cfg, agent.Options{Knowledge: offline.Knowledge(), Model: m.Model, Store: store})
	require.NoError(t, err)
	t.Cleanup(func() { a.Close(); store.Close() })
	return a
}

func decodeAs[T any](t *testing.T, res *http.Response) T {
	t.Helper()
	var v T
	require.NoError(t, json.NewDecoder(res.Body).Decode(&v))
	return v
}

func listReviews(t *testing.T, url, key string) reviewList {
	t.Helper()
	res := get(t, url+"/v1/reviews", key)
	require.Equal(t, http.StatusOK, res.StatusCode)
	return decodeAs[reviewList](t, res)
}

func resumeBody(interrupt, decision, text, note string) string {
	b, _ := json.Marshal(map[string]string{"interrupt_id": interrupt, "decision": decision, "text": text, "note": note})
	return string(b)
}

// TestHumanReviewOverTheAPI: a held draft answers with its interrupt; the
// asker's key sees it on its thread and cannot answer it; a reviewer key
// lists it and edits it; the asker reads the edited answer, and the
// review, on the thread.
func TestHumanReviewOverTheAPI(t *testing.T) {
	ts := serve(t, reviewingAgent(t), Options{APIKeys: []string{"asker", "other"}, ReviewerKeys: []string{"reviewer"}, Sessions: true})
	res := post(t, ts.URL+"/v1/turns", "asker", `{"message":"How do I set the guard mode?","session_id":"s1"}`)
	require.Equal(t, http.StatusOK, res.StatusCode)
	held := decodeAs[interruptedTurn](t, res)
	assert.Equal(t, "interrupted", held.Status)
	assert.Equal(t, "s1", held.SessionID)
	assert.True(t, strings.HasSuffix(held.ThreadID, "~s1"), held.ThreadID)
	assert.NotEmpty(t, held.InterruptID)
	require.NotNil(t, held.PendingReview)
	assert.Equal(t, failedDraft, held.PendingReview.Draft)
	assert.Equal(t, "FAIL", held.PendingReview.Verdict)
	assert.NotEmpty(t, held.PendingReview.Reasons, "why the Guardian failed it")
	assert.Equal(t, contracts.ReviewOnFail, held.PendingReview.Reason)

	th := readThread(t, ts.URL, "asker", "s1", "")
	require.Len(t, th.Turns, 1)
	assert.Equal(t, agent.TurnInterrupted, th.Turns[0].Status)
	require.NotNil(t, th.PendingReview)
	assert.Equal(t, held.InterruptID, th.PendingReview.InterruptID)

	assert.Len(t, listReviews(t, ts.URL, "asker").Data, 1, "the asker sees its own held draft")
	assert.Empty(t, listReviews(t, ts.URL, "other").Data, "another asker sees none of it")
	all := listReviews(t, ts.URL, "reviewer").Data
	require.Len(t, all, 1)
	assert.Equal(t, held.ThreadID, all[0].ThreadID)
	assert.Equal(t, "How do I set the guard mode?", all[0].Question)
	assert.NotNil(t, all[0].Evidence)

	resume := ts.URL + "/v1/threads/" + held.ThreadID + "/resume"
	res = post(t, resume, "asker", resumeBody(held.InterruptID, "approve", "", ""))
	assert.Equal(t, http.StatusForbidden, res.StatusCode, "an asker's key cannot review")
	for _, tc := range []struct{ body, param string }{
		{resumeBody(held.InterruptID, "maybe", "", ""), "decision"},
		{resumeBody(held.InterruptID, "edit", " ", ""), "text"},
		{resumeBody("", "approve", "", ""), "interrupt_id"},
	} {
		res = post(t, resume, "reviewer", tc.body)
		assert.Equal(t, http.StatusBadRequest, res.StatusCode, tc.body)
		_, _, param, _ := errorOf(t, res)
		assert.Equal(t, tc.param, param)
	}
	res = post(t, resume, "reviewer", resumeBody("0123456789abcdef", "approve", "", ""))
	assert.Equal(t, http.StatusConflict, res.StatusCode, "another interrupt than the one waiting")

	const edited = "Set guard.mode: enforce, as the safety guard page says."
	res = post(t, resume, "reviewer", resumeBody(held.InterruptID, "edit", edited, "checked against the docs"))
	require.Equal(t, http.StatusOK, res.StatusCode)
	out := decodeAs[contracts.StructuredResult](t, res)
	assert.Contains(t, out.Answer, edited)
	require.NotNil(t, out.Review)
	assert.Equal(t, contracts.ReviewEdit, out.Review.Decision)

	th = readThread(t, ts.URL, "asker", "s1", "")
	require.Len(t, th.Turns, 1, "the held turn and its end are one turn")
	turn := th.Turns[0]
	assert.Equal(t, agent.TurnAnswered, turn.Status)
	assert.Equal(t, out.Answer, turn.Answer)
	require.NotNil(t, turn.Review, "the thread's history has the review")
	assert.Equal(t, "checked against the docs", turn.Review.Note)
	assert.Equal(t, keyIDOf("reviewer"), turn.Review.Reviewer)
	assert.Nil(t, th.PendingReview)
	assert.Empty(t, listReviews(t, ts.URL, "reviewer").Data)

	res = post(t, resume, "reviewer", resumeBody(held.InterruptID, "approve", "", ""))
	assert.Equal(t, http.StatusConflict, res.StatusCode, "a review is answered once")
	_, _, _, code := errorOf(t, res)
	assert.Equal(t, "review_not_pending", code)

	// The session goes on after its review.
	res = post(t, ts.URL+"/v1/turns", "asker", `{"message":"How do I set the guard mode?","session_id":"s1"}`)
	require.Equal(t, http.StatusOK, res.StatusCode)
	assert.Equal(t, 2, decodeAs[interruptedTurn](t, res).Turn)
}

// TestHumanReviewOfAChatCompletion: a held completion is the documented
// error review_pending naming the thread and the interrupt; a streamed
// resume runs the rest of the turn, and the asker's thread shows it.
func TestHumanReviewOfAChatCompletion(t *testing.T) {
	ts := serve(t, reviewingAgent(t), Options{Sessions: true}) // no keys: anyone on loopback reviews
	res := post(t, ts.URL+"/v1/chat/completions", "", chatBody("user", "How do I set the guard mode?"))
	require.Equal(t, http.StatusConflict, res.StatusCode)
	var body struct {
		Error struct {
			Type        string `json:"type"`
			Code        string `json:"code"`
			Message     string `json:"message"`
			ThreadID    string `json:"thread_id"`
			SessionID   string `json:"session_id"`
			InterruptID string `json:"interrupt_id"`
		} `json:"error"`
	}
	require.NoError(t, json.NewDecoder(res.Body).Decode(&body))
	assert.Equal(t, "review_pending", body.Error.Code)
	assert.NotEmpty(t, body.Error.InterruptID)
	assert.True(t, strings.HasPrefix(body.Error.SessionID, "turn-"), "a turn without a session gets one to be followed on")
	assert.Contains(t, body.Error.Message, body.Error.ThreadID)

	res = post(t, ts.URL+"/v1/threads/"+body.Error.ThreadID+"/resume", "",
		`{"interrupt_id":"`+body.Error.InterruptID+`","decision":"approve","stream":true}`)
	require.Equal(t, http.StatusOK, res.StatusCode)
	assert.Equal(t, "text/event-stream", res.Header.Get("Content-Type"))
	var names []string
	var result contracts.StructuredResult
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	name := ""
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			name = ""
		}
		if n, ok := strings.CutPrefix(line, "event: "); ok {
			name = n
			names = append(names, n)
		}
		if d, ok := strings.CutPrefix(line, "data: "); ok && name == "result" {
			require.NoError(t, json.Unmarshal([]byte(d), &result))
		}
	}
	assert.Contains(t, names, "node_start")
	require.Equal(t, "result", names[len(names)-1])
	assert.Contains(t, result.Answer, failedDraft, "approved: the draft goes out")

	th := readThread(t, ts.URL, "", body.Error.SessionID, "")
	require.Len(t, th.Turns, 1)
	assert.Equal(t, agent.TurnAnswered, th.Turns[0].Status)
	require.NotNil(t, th.Turns[0].Review)
	assert.Equal(t, contracts.ReviewApprove, th.Turns[0].Review.Decision)

	// A turn that is not held leaves no session behind.
	plain := serve(t, offline, Options{Sessions: true})
	res = post(t, plain.URL+"/v1/turns", "", `{"message":"How do I configure the safety guard?"}`)
	require.Equal(t, http.StatusOK, res.StatusCode)
}

// keyIDOf is the id the server gives a key.
func keyIDOf(key string) string { return newReviewerSet([]string{key}).only() }

func (s reviewerSet) only() string {
	for id := range s {
		return id
	}
	return ""
}
