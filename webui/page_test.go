package webui_test

import (
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// payload would set window.__pwned if the page took the message as HTML.
const payload = `<img src=x onerror="window.__pwned='user-img'"><script>window.__pwned='user-script'</script>`

// untrusted: HTML in the user's message and in a knowledge-base article
// (xssArticle: its title and its text) shows as text, and nothing runs.
func untrusted(t *testing.T, b *browser, url string) {
	tb := b.tab(t)
	tb.open(url)
	v := tb.ask(1, payload+" How do I configure the guard?")
	assert.Equal(t, payload+" How do I configure the guard?", v.User, "the message shows as the user typed it")
	v = tb.ask(2, "How do I configure the frobnicator widget?")
	assert.Equal(t, "normal", v.Action, v)
	// The offline engine quotes an article's words, not its markup: the
	// answer holds neither tag nor script (the Markdown renderer's own
	// test shows HTML in an answer as text).
	assert.Contains(t, v.Answer, "To configure the frobnicator widget", "the article is quoted")
	assert.NotContains(t, v.Answer, "<img")
	assert.NotContains(t, v.Answer, "__pwned='kb-script'")
	require.NotEmpty(t, v.Rows)
	assert.Equal(t, `Frobnicator widget <img src=x onerror="window.__pwned='kb-title'">`, v.Rows[0][1], "and in the articles table")
	assert.Contains(t, v.Sources[0], `<img src=x`, "and in the sources")

	var state struct {
		Pwned    string `json:"pwned"`
		Elements int    `json:"elements"`
	}
	tb.run(chromedp.Click(`#messages article.turn:nth-of-type(2) details.articles summary`))
	tb.eval(`({pwned: String(window.__pwned), elements: document.querySelectorAll('#messages img, #messages script, #threads img, #threads script').length})`, &state)
	assert.Equal(t, "undefined", state.Pwned, "no payload ran")
	assert.Zero(t, state.Elements, "no payload became an element")
	var threadTitle string
	tb.run(until(`#threads button[aria-current="true"]`), chromedp.Text(`#threads button[aria-current="true"]`, &threadTitle))
	assert.True(t, strings.HasPrefix(threadTitle, "<img src=x"), "the thread's title is text too: %q", threadTitle)
}

// keyboard: the composer has the focus, Shift+Enter starts a new line,
// Enter sends, the focus comes back after the turn, and Tab reaches Send.
func keyboard(t *testing.T, b *browser, url string) {
	tb := b.tab(t)
	tb.open(url)
	var focused string
	tb.eval(`document.activeElement.id`, &focused)
	assert.Equal(t, "input", focused, "the composer has the focus when the page opens")
	tb.run(chromedp.KeyEvent("What does report mode do?"), enter(input.ModifierShift), chromedp.KeyEvent("And enforce?"))
	var value string
	var turns int
	tb.eval(`document.getElementById('input').value`, &value)
	tb.eval(`document.querySelectorAll('#messages article.turn').length`, &turns)
	assert.Equal(t, "What does report mode do?\nAnd enforce?", value, "Shift+Enter is a new line")
	assert.Zero(t, turns, "Shift+Enter does not send")

	tb.run(enter(0), untilTurn(1))
	v := tb.turn(1)
	assert.Equal(t, "What does report mode do?\nAnd enforce?", v.User)
	tb.eval(`document.getElementById('input').value`, &value)
	assert.Empty(t, value, "the Enter that sent leaves no line behind")
	tb.eval(`document.activeElement.id`, &focused)
	assert.Equal(t, "input", focused, "the focus comes back to the composer")
	tb.run(chromedp.KeyEvent(kb.Tab))
	tb.eval(`document.activeElement.id`, &focused)
	assert.Equal(t, "send", focused, "Tab goes from the composer to Send")

	// The articles panel opens from the keyboard: Tab to its summary, Enter.
	tb.run(chromedp.Focus(`#messages details.articles summary`), enter(0))
	v = tb.turn(1)
	assert.True(t, v.Panels[len(v.Panels)-1].Open, "Enter on the summary opens the panel")
}

// phone: a 390 px wide screen holds the page without sideways scrolling;
// the conversations fold behind a button.
func phone(t *testing.T, b *browser, url string) {
	tb := b.tab(t, emulation.SetDeviceMetricsOverride(390, 844, 2, true))
	tb.open(url)
	v := tb.ask(1, question)
	assert.Equal(t, "normal", v.Action, v)
	var layout struct {
		Width        int  `json:"width"`
		ScrollWidth  int  `json:"scrollWidth"`
		SendRight    int  `json:"sendRight"`
		SidebarShown bool `json:"sidebarShown"`
		ToggleShown  bool `json:"toggleShown"`
	}
	const measure = `({width: window.innerWidth, scrollWidth: document.documentElement.scrollWidth,
	  sendRight: Math.ceil(document.getElementById('send').getBoundingClientRect().right),
	  sidebarShown: getComputedStyle(document.getElementById('sidebar')).display !== 'none',
	  toggleShown: getComputedStyle(document.getElementById('threads-toggle')).display !== 'none'})`
	tb.eval(measure, &layout)
	assert.Equal(t, 390, layout.Width)
	assert.LessOrEqual(t, layout.ScrollWidth, 390, "nothing is wider than the screen")
	assert.LessOrEqual(t, layout.SendRight, 390, "Send is on the screen")
	assert.False(t, layout.SidebarShown, "the conversations are folded")
	assert.True(t, layout.ToggleShown)
	tb.shot("web-chat-phone.png")

	tb.run(chromedp.Click(`#threads-toggle`), until(`#threads button`))
	tb.eval(measure, &layout)
	assert.True(t, layout.SidebarShown, "the button shows the conversations")
}
