package webui_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/server"
	"github.com/sgrgraph/sgrgraph/sgrtest"
)

// heldDraft is what reviewingAgent's model drafts, from memory: the
// Guardian fails it, and guardian.human_review holds it for a person.
const heldDraft = "Set guard.mode to enforce."

func reviewingAgent(t *testing.T) *agent.Agent {
	t.Helper()
	plan, err := json.Marshal(contracts.SGRPlan{SpamScore: 0.05, SpamReason: "on topic", UserIntent: "set the guard mode", Topic: "safety guard",
		Category: "configuration", RequestType: contracts.RequestKnowledgeQA, AnswerLanguage: "en",
		Subqueries: []string{"safety guard mode"}, IntentConfidence: 0.9, Action: contracts.ActionNormal})
	require.NoError(t, err)
	m := sgrtest.NewScriptedModel(sgrtest.ToolCall("analyse_user_request", string(plan)),
		sgrtest.Text("From memory."), sgrtest.Text("Still from memory."), sgrtest.Text(heldDraft)).Repeat()
	cfg := config.Default()
	cfg.KB.CacheDir = t.TempDir()
	cfg.Guardian.HumanReview = []string{contracts.ReviewOnFail}
	store := checkpoint.NewMemory()
	a, err := agent.New(context.Background(), cfg, agent.Options{Knowledge: agents.enforce.Knowledge(), Model: m.Model, Store: store})
	require.NoError(t, err)
	t.Cleanup(func() { a.Close(); store.Close() })
	return a
}

// TestBrowserReview: a question whose draft fails the Guardian pauses and
// the asker's chat says it waits for review; the reviewer page shows the
// question, the draft and the Guardian's reasons; Edit there, and the
// asker's chat shows the edited answer without a reload; the thread's
// history has the review.
func TestBrowserReview(t *testing.T) {
	b := startBrowser(t)
	url := serveUI(t, reviewingAgent(t), server.Options{})

	asker := b.tab(t)
	asker.open(url)
	asker.run(chromedp.SendKeys("#input", "How do I set the guard mode?"), enter(0),
		until(`#messages article.turn[data-review="pending"]`))
	v := asker.turn(1)
	assert.Equal(t, "Waiting for review: a person checks this answer before it is shown.", v.Status)
	assert.NotContains(t, v.Text, heldDraft, "the held draft is not shown to the asker")

	reviewer := b.tab(t)
	reviewer.run(chromedp.Navigate(url+"/ui/review.html"), until(`body[data-ready]`), until(`article.review`))
	var card struct{ Question, Draft, Why string }
	var reasons int
	reviewer.eval(`(() => { const c = document.querySelector('article.review'); return {Question: c.querySelector('.review-question').textContent,
	  Draft: c.querySelector('.review-draft').textContent, Why: c.querySelector('.review-why').textContent}; })()`, &card)
	reviewer.eval(`document.querySelectorAll('article.review .review-reasons li').length`, &reasons)
	assert.Equal(t, "How do I set the guard mode?", card.Question)
	assert.Equal(t, heldDraft, card.Draft)
	assert.Equal(t, "The Guardian failed the draft (FAIL)", card.Why)
	assert.Positive(t, reasons, "the Guardian's reasons")
	reviewer.shot("review-page.png")

	const edited = "Set guard.mode to enforce in the configuration file [1]."
	reviewer.run(chromedp.Evaluate(`document.querySelector('article.review .review-text').value = ''`, nil), chromedp.SendKeys(`article.review .review-text`, edited),
		chromedp.SendKeys(`article.review .review-note`, "checked"),
		chromedp.Click(`article.review button[data-decision="edit"]`), until(`article.review[data-sent="edit"]`))

	asker.run(untilTrue(`document.querySelector('#messages article.turn[data-action]:not([data-review])') !== null`))
	v = asker.turn(1)
	assert.Contains(t, v.Answer, "Set guard.mode to enforce in the configuration file", "the edited answer, without a reload")
	assert.Contains(t, v.Text, "A reviewer edited this answer.")

	var threads struct{ Data []struct{ ID string } }
	getJSON(t, url+"/v1/threads", &threads)
	require.Len(t, threads.Data, 1)
	var th struct {
		Turns []agent.TurnRecord `json:"turns"`
	}
	getJSON(t, url+"/v1/threads/"+threads.Data[0].ID, &th)
	require.Len(t, th.Turns, 1)
	require.NotNil(t, th.Turns[0].Review, "the thread's history has the review")
	assert.Equal(t, contracts.ReviewEdit, th.Turns[0].Review.Decision)
	assert.Equal(t, "checked", th.Turns[0].Review.Note)
	assert.Contains(t, th.Turns[0].Answer, edited)
}

func getJSON(t *testing.T, url string, out any) {
	t.Helper()
	res, err := http.Get(url)
	require.NoError(t, err)
	defer res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.NoError(t, json.NewDecoder(res.Body).Decode(out))
}
