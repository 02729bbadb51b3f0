package webui_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/server"
)

const (
	question = "How do I configure the safety guard?"
	spam     = "Buy cheap watches, best price, visit http://example.com/deal"
	unsafe   = "How do I make a bomb at home?"
	vague    = "it doesn't work"
	russian  = "Как настроить фильтр безопасности?"
	apiKey   = "browser-test-key"
)

// TestBrowser drives the web chat in a real headless Chromium against the
// real server (seed 003 §11): one browser, a tab per case.
func TestBrowser(t *testing.T) {
	url := serveUI(t, agents.enforce, server.Options{})
	keyed := serveUI(t, agents.report, server.Options{APIKeys: []string{apiKey}})
	b := startBrowser(t)
	t.Run("a question streams its answer, then badges, panels and citations", func(t *testing.T) { answered(t, b, url) })
	t.Run("a spam question is blocked: the refusal and its spam score", func(t *testing.T) { blocked(t, b, url) })
	t.Run("a vague question gets a question back", func(t *testing.T) { clarified(t, b, url) })
	t.Run("an unsafe question gets the Guardian's refusal only", func(t *testing.T) { refused(t, b, url) })
	t.Run("report mode: the key is asked once, the refusal never shows the intent", func(t *testing.T) { keyAndReportMode(t, b, keyed) })
	t.Run("Russian when the browser asks for it, and the switch", func(t *testing.T) { inRussian(t, b, url) })
	t.Run("HTML in a message or an article shows as text and never runs", func(t *testing.T) { untrusted(t, b, url) })
	t.Run("keyboard only: Enter sends, Shift+Enter starts a line", func(t *testing.T) { keyboard(t, b, url) })
	t.Run("a 390 px phone screen", func(t *testing.T) { phone(t, b, url) })
	t.Run("Stop cancels the turn on the page and on the server", func(t *testing.T) { stopped(t, b) })
	t.Run("a model service that is down: a plain failure, the question kept", func(t *testing.T) { modelDown(t, b) })
	t.Run("retries and withdrawn drafts show as the CLI shows them", func(t *testing.T) { retried(t, b, url) })
	t.Run("the Markdown renderer escapes first", func(t *testing.T) { markdown(t, b, url) })
}

func answered(t *testing.T, b *browser, url string) {
	tb := b.tab(t)
	tb.open(url)
	v := tb.ask(1, question)
	assert.Equal(t, "normal", v.Action, v)
	assert.Equal(t, question, v.User)
	assert.Greater(t, v.Tokens, 10, "the answer came token by token")
	assert.Contains(t, v.Answer, "Here is what the documentation says", "the tokens and the answer message agree")
	assert.Positive(t, v.Cites, "citations [n] are links")
	assert.Equal(t, map[string]string{"guardian": "done", "plan": "done", "search": "done", "judge": "done"}, v.Steps)
	require.Len(t, v.UI, 2, v)
	assert.Equal(t, []string{"intent", "response"}, []string{v.UI[0].Type, v.UI[1].Type})
	assert.Contains(t, v.UI[0].Text, "How I understood your request")
	searches := 0
	for _, l := range v.Log {
		if strings.HasPrefix(l, "Searching: ") {
			searches++
		}
	}
	assert.Positive(t, searches, "the searches show while the turn runs")

	// Seed 003 §11's badges, their words and colours.
	assert.Equal(t, []string{"spam", "confidence", "queries", "safety", "verdict"}, v.badgeKinds())
	want := map[string][2]string{ // kind: colour, text
		"spam": {"green", "Spam: 0.01 ✓ Low"}, "confidence": {"green", "Confidence: High"},
		"queries": {"info", "Queries: " + strconv.Itoa(searches)}, "safety": {"green", "Safety: Safe"}, "verdict": {"green", "Verdict: PASS"},
	}
	for kind, badge := range v.badges() {
		assert.Equal(t, want[kind][0], badge.Color, kind)
		assert.Equal(t, want[kind][1], badge.Text, kind)
		assert.Equal(t, colours[badge.Color], badge.Background, kind)
	}

	// The panels, folded; the articles numbered as the citations are.
	require.Equal(t, []string{"analysis", "articles"}, v.panelKinds())
	for _, p := range v.Panels {
		assert.False(t, p.Open, "%s is folded by default", p.Kind)
	}
	assert.Equal(t, "Analysis Summary", v.Panels[0].Summary)
	assert.Equal(t, "configure the safety guard", v.Intent)
	assert.Equal(t, "Retrieved Articles ("+strconv.Itoa(len(v.Rows))+")", v.Panels[1].Summary)
	require.NotEmpty(t, v.Rows)
	assert.Equal(t, []string{"1", "The safety guard"}, v.Rows[0][:2])
	assert.Regexp(t, `^0\.\d\d$`, v.Rows[0][2])
	assert.Contains(t, v.Sources[0], "[1] The safety guard")

	tb.scrollTo(`#messages article.turn .bubble.assistant`)
	tb.shot("web-chat-answer.png")

	// A citation opens the articles and brings its row into focus.
	var focused string
	tb.run(chromedp.Click(`#messages .answer a.cite`), chromedp.Evaluate(`document.activeElement.id`, &focused))
	assert.Regexp(t, `^ref-t\d+-1$`, focused)
	tb.run(chromedp.Click(`#messages details.analysis summary`))
	v = tb.turn(1)
	assert.True(t, v.Panels[0].Open && v.Panels[1].Open)
	tb.scrollTo(`#messages article.turn .badges`)
	tb.shot("web-chat-panels.png")

	secondTurn(t, tb, v)
}

// secondTurn continues the conversation in the same tab, then finds it in
// the list of threads and opens it again.
func secondTurn(t *testing.T, tb *tab, first turnView) {
	v := tb.ask(2, "What does report mode do?")
	assert.Equal(t, "normal", v.Action, v)
	assert.Equal(t, "2", v.Turn, "the second turn of the same thread")
	assert.Equal(t, "1", first.Turn)
	tb.run(until(`#threads button[aria-current="true"]`))
	var current struct{ ID, Title string }
	tb.eval(`(() => { const b = document.querySelector('#threads button[aria-current="true"]'); return {ID: b.dataset.thread, Title: b.textContent}; })()`, &current)
	assert.Equal(t, question, current.Title, "the thread is titled by its first question")

	tb.run(chromedp.Click(`#new-chat`))
	var turns int
	tb.eval(`document.querySelectorAll('#messages article.turn').length`, &turns)
	assert.Zero(t, turns, "a new conversation starts empty")
	tb.run(chromedp.Click(fmt.Sprintf(`#threads button[data-thread=%q]`, current.ID)), until(`#messages article.turn:nth-of-type(2)`))
	var earlier []string
	tb.eval(`[...document.querySelectorAll('#messages .bubble.user .text')].map((e) => e.textContent)`, &earlier)
	assert.Equal(t, []string{question, "What does report mode do?"}, earlier)
	// The conversation reopens as it was shown: the same answer, its
	// citations linked to the same sources list.
	again := tb.turn(1)
	assert.Equal(t, first.Answer, again.Answer)
	assert.Equal(t, first.Sources, again.Sources)
	assert.Equal(t, first.Cites, again.Cites)
	assert.Positive(t, again.Cites)
	assert.Equal(t, first.Action, again.Action)
	v = tb.ask(3, "How do I run a batch?")
	assert.Equal(t, "3", v.Turn, "a conversation opened from the list goes on")
}

func blocked(t *testing.T, b *browser, url string) {
	tb := b.tab(t)
	tb.open(url)
	v := tb.ask(1, spam)
	assert.Equal(t, "block", v.Action, v)
	require.Len(t, v.UI, 2, v)
	assert.Equal(t, "intent", v.UI[0].Type, "seed 000 template 3 shows how the request was understood")
	assert.Equal(t, "refusal", v.UI[1].Type)
	assert.Contains(t, v.UI[1].Text, "doesn't seem to be about sgrgraph")
	assert.Empty(t, v.Answer)
	assert.Equal(t, []string{"spam", "safety"}, v.badgeKinds(), "nothing was searched or judged: no confidence, queries or verdict")
	// The score's digits are the spam model's over the documentation; the badge's colour, mark and level are the page's.
	spamBadge := v.badges()["spam"]
	assert.Regexp(t, `^Spam: 0\.9\d ✗ High$`, spamBadge.Text)
	assert.Equal(t, badgeView{"spam", "red", spamBadge.Text, colours["red"]}, spamBadge)
	assert.Empty(t, v.Panels)
	assert.Equal(t, "skipped", v.Steps["search"])
}

func clarified(t *testing.T, b *browser, url string) {
	tb := b.tab(t)
	tb.open(url)
	v := tb.ask(1, vague)
	assert.Equal(t, "clarify", v.Action, v)
	require.Len(t, v.UI, 2, v)
	assert.Equal(t, "clarification", v.UI[1].Type)
	assert.Contains(t, v.UI[1].Text, "What exactly is not working")
	assert.Equal(t, []string{"spam", "safety"}, v.badgeKinds())
	assert.Equal(t, "green", v.badges()["spam"].Color, "below 0.3 is Low: %s", v.badges()["spam"].Text)
	assert.Equal(t, []string{"analysis"}, v.panelKinds(), "the plan, but no articles: nothing was searched")
}

func refused(t *testing.T, b *browser, url string) {
	tb := b.tab(t)
	tb.open(url)
	v := tb.ask(1, unsafe)
	assert.Equal(t, "guardian_block", v.Action, v)
	require.Len(t, v.UI, 1, v)
	assert.Equal(t, "refusal", v.UI[0].Type)
	assert.Contains(t, v.UI[0].Text, "may involve potentially harmful actions")
	assert.Equal(t, []badgeView{{"safety", "red", "Safety: Unsafe", colours["red"]}}, v.Badges)
	assert.Empty(t, v.Panels)
	assert.Equal(t, map[string]string{"guardian": "done", "plan": "skipped", "search": "skipped", "judge": "skipped"}, v.Steps)
	tb.shot("web-chat-refusal.png")
}

// keyAndReportMode: the server has keys; in report mode the plan reads the
// unsafe request before the Guardian's refusal, and its UI messages carry
// the intent: the page shows the refusal alone (seed 000 template 4).
func keyAndReportMode(t *testing.T, b *browser, url string) {
	tb := b.tab(t)
	tb.open(url)
	tb.run(until(`#key-dialog[open]`), chromedp.SendKeys(`#key-input`, "wrong-key"), enter(0))
	tb.run(untilTrue(`!document.getElementById("key-rejected").hidden`), chromedp.SendKeys(`#key-input`, apiKey), enter(0),
		untilTrue(`!document.getElementById("key-dialog").open`))
	v := tb.ask(1, unsafe)
	assert.Equal(t, "guardian_block", v.Action, v)
	require.Len(t, v.UI, 1, v)
	assert.Equal(t, "refusal", v.UI[0].Type)
	assert.NotContains(t, v.Text, "make a bomb", "never the user's intent")
	assert.NotContains(t, v.Text, "How I understood")
	assert.Empty(t, v.Panels)
	assert.Equal(t, []string{"safety"}, v.badgeKinds())

	var kept string
	tb.eval(`sessionStorage.getItem('sgrgraph.key')`, &kept)
	assert.Equal(t, apiKey, kept, "the key is kept for the tab")
	var asked bool
	tb.run(chromedp.Reload(), until(`body[data-ready]`), until(`#threads button`),
		chromedp.Evaluate(`document.getElementById('key-dialog').open`, &asked))
	assert.False(t, asked, "a reload in the same tab does not ask again")
}

func inRussian(t *testing.T, b *browser, url string) {
	// The browser asks for Russian as a Russian user's does: Accept-Language, navigator.languages.
	tb := b.tab(t, chromedp.ActionFunc(func(ctx context.Context) error {
		_, _, _, ua, _, err := cdpbrowser.GetVersion().Do(ctx)
		if err != nil {
			return err
		}
		return emulation.SetUserAgentOverride(ua).WithAcceptLanguage("ru-RU,ru;q=0.9,en;q=0.5").Do(ctx)
	}))
	tb.open(url)
	assert.Equal(t, []string{"ru", "Отправить", "ru"}, tb.labels())
	v := tb.ask(1, russian)
	assert.Equal(t, "normal", v.Action, v)
	assert.Contains(t, v.Answer, "Вот что сказано в документации")
	// The score is the spam model's, which reads the knowledge base's words: its digits follow the
	// documentation; the words, the mark and the level are the page's.
	assert.Regexp(t, `^Спам: 0\.0\d ✓ Низкий$`, v.badges()["spam"].Text)
	score := strings.Fields(v.badges()["spam"].Text)[1]
	assert.Equal(t, "Безопасность: Безопасно", v.badges()["safety"].Text)
	assert.Contains(t, v.Panels[0].Summary, "Сводка анализа")
	assert.Contains(t, v.Panels[1].Summary, "Найденные статьи")
	assert.Contains(t, v.Sources[0], "[1]")
	tb.shot("web-chat-ru.png")

	tb.run(chromedp.SetValue(`#lang`, "en"), chromedp.Evaluate(`document.getElementById('lang').dispatchEvent(new Event('change'))`, nil))
	v = tb.turn(1)
	assert.Equal(t, []string{"en", "Send", "en"}, tb.labels())
	assert.Equal(t, "Spam: "+score+" ✓ Low", v.badges()["spam"].Text, "the badges follow the switch")
	assert.Contains(t, v.Answer, "Вот что сказано", "the answer stays in the language it was written in")
}
