package webui_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/server"
	"github.com/sgrgraph/sgrgraph/sgrtest/servers"
	"github.com/sgrgraph/sgrgraph/webui"
)

// screenshots, when set, is where the browser test also writes its
// screenshots: go test ./webui -run TestBrowser -args -screenshots ../docs/images
var screenshots = flag.String("screenshots", os.Getenv("SGRGRAPH_SCREENSHOTS"), "also write the browser test's screenshots to this directory (docs/images)")

// tabTimeout bounds everything one tab does, so a page that never shows what
// a case waits for fails the case; a turn offline takes milliseconds.
const tabTimeout = 30 * time.Second

// serveUI starts the real server with the web chat over an agent.
func serveUI(t *testing.T, a *agent.Agent, o server.Options) string {
	t.Helper()
	ui, err := webui.New()
	require.NoError(t, err)
	o.UI, o.Sessions = ui, true
	ts := httptest.NewServer(server.New(a, o))
	t.Cleanup(ts.Close)
	return ts.URL
}

// browser is one headless Chromium for the whole test; each case gets a tab.
type browser struct {
	ctx   context.Context
	shots string
}

func startBrowser(t *testing.T) *browser {
	t.Helper()
	opts := append(servers.ChromiumOptions(t), chromedp.WindowSize(1280, 860), chromedp.Flag("lang", "en-US"))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc, chromedp.WithErrorf(func(format string, args ...any) {
		// chromedp v0.14 does not know every event of today's Chromium
		// (the top layer a <dialog> opens); it says so and goes on.
		if msg := fmt.Sprintf(format, args...); !strings.Contains(msg, "unhandled node event") {
			t.Logf("chromedp: %s", msg)
		}
	}))
	t.Cleanup(func() { cancel(); cancelAlloc() })
	require.NoError(t, chromedp.Run(ctx), "start chromium")
	return &browser{ctx: ctx, shots: t.TempDir()}
}

// tab is a browser tab (its own sessionStorage, so its own API key), which
// fails its test on any script error, console error or CSP report.
type tab struct {
	t        *testing.T
	b        *browser
	ctx      context.Context
	mu       sync.Mutex
	problems []string
}

func (b *browser) tab(t *testing.T, setup ...chromedp.Action) *tab {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx)
	ctx, stop := context.WithTimeout(ctx, tabTimeout)
	tb := &tab{t: t, b: b, ctx: ctx}
	chromedp.ListenTarget(ctx, tb.listen)
	t.Cleanup(func() {
		tb.mu.Lock()
		defer tb.mu.Unlock()
		for _, p := range tb.problems {
			t.Errorf("the page reported: %s", p)
		}
		stop()
		cancel()
	})
	// A desktop screen unless setup says otherwise: the same size whatever
	// window the browser opens, so that screenshots compare.
	tb.run(append([]chromedp.Action{cdplog.Enable(), emulation.SetDeviceMetricsOverride(1280, 900, 1, false)}, setup...)...)
	return tb
}

func (tb *tab) listen(ev any) {
	var problem string
	switch e := ev.(type) {
	case *runtime.EventExceptionThrown:
		problem = "exception: " + e.ExceptionDetails.Error()
	case *runtime.EventConsoleAPICalled:
		if e.Type == runtime.APITypeError {
			var args []string
			for _, a := range e.Args {
				args = append(args, string(a.Value)+a.Description)
			}
			problem = "console.error: " + strings.Join(args, " ")
		}
	case *cdplog.EventEntryAdded:
		// Network errors are the API's answers (a 401 asks for the key); the rest are the page's own.
		if e.Entry.Level == cdplog.LevelError && e.Entry.Source != cdplog.SourceNetwork {
			problem = string(e.Entry.Source) + ": " + e.Entry.Text
		}
	}
	if problem != "" {
		tb.mu.Lock()
		tb.problems = append(tb.problems, problem)
		tb.mu.Unlock()
	}
}

func (tb *tab) run(actions ...chromedp.Action) {
	tb.t.Helper()
	require.NoError(tb.t, chromedp.Run(tb.ctx, actions...))
}

// open loads the page and waits until its labels are in.
func (tb *tab) open(url string) {
	tb.t.Helper()
	tb.run(chromedp.Navigate(url+"/"), until(`body[data-ready]`))
}

// until waits for an element matching selector. chromedp's WaitVisible
// does not see an attribute set later on a node it has already seen, so
// the page is asked directly.
func until(selector string) chromedp.Action {
	return untilTrue(fmt.Sprintf("document.querySelector(%q) !== null", selector))
}

// untilTrue waits for a JavaScript expression to be true.
func untilTrue(expr string) chromedp.Action {
	return chromedp.Poll(expr, nil, chromedp.WithPollingInterval(20*time.Millisecond))
}

// ask types a question into the composer and sends it with Enter, then
// waits for the n-th turn on the page to have its result and its stream to
// end. Before that the page is still running the turn, and Enter there
// only keeps the text for later.
func (tb *tab) ask(n int, question string) turnView {
	tb.t.Helper()
	tb.run(untilTrue(idle), chromedp.Focus("#input"), chromedp.SendKeys("#input", question), enter(0))
	tb.run(untilTurn(n))
	return tb.turn(n)
}

// idle says the page runs no turn (Stop is hidden, Send enabled) and is
// not redrawing the list of threads, whose buttons a case may click.
const idle = `document.getElementById('stop').hidden && !document.getElementById('send').disabled &&
  document.getElementById('threads').getAttribute('aria-busy') !== 'true'`

// untilTurn waits for the n-th turn's result and the end of its stream.
func untilTurn(n int) chromedp.Action {
	return untilTrue(fmt.Sprintf("document.querySelector(%q) !== null && %s", fmt.Sprintf(`#messages article.turn:nth-of-type(%d)[data-action]`, n), idle))
}

// enter presses Enter with the modifiers as a keyboard does: one keydown
// that carries the text. (chromedp's kb.Enter sends the text in an event
// of its own, which a page's preventDefault on keydown cannot stop.)
func enter(modifiers input.Modifier) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		down := input.DispatchKeyEvent(input.KeyDown).WithKey("Enter").WithCode("Enter").WithText("\r").WithUnmodifiedText("\r").
			WithWindowsVirtualKeyCode(13).WithNativeVirtualKeyCode(13).WithModifiers(modifiers)
		if err := down.Do(ctx); err != nil {
			return err
		}
		return input.DispatchKeyEvent(input.KeyUp).WithKey("Enter").WithCode("Enter").
			WithWindowsVirtualKeyCode(13).WithNativeVirtualKeyCode(13).WithModifiers(modifiers).Do(ctx)
	})
}

// scrollTo scrolls the conversation so that selector's element is at its top.
func (tb *tab) scrollTo(selector string) {
	tb.t.Helper()
	tb.run(chromedp.Evaluate(fmt.Sprintf(`document.querySelector(%q).scrollIntoView({block: "start"})`, selector), nil))
}

// eval evaluates a JavaScript expression into out.
func (tb *tab) eval(expr string, out any) {
	tb.t.Helper()
	tb.run(chromedp.Evaluate(expr, out))
}

// shot saves a screenshot of the viewport as name, and into -screenshots.
func (tb *tab) shot(name string) {
	tb.t.Helper()
	var png []byte
	tb.run(chromedp.CaptureScreenshot(&png))
	require.NoError(tb.t, os.WriteFile(filepath.Join(tb.b.shots, name), png, 0o644))
	if *screenshots != "" {
		require.NoError(tb.t, os.MkdirAll(*screenshots, 0o755))
		require.NoError(tb.t, os.WriteFile(filepath.Join(*screenshots, name), png, 0o644))
	}
}

// turnView is what the page shows of one turn.
type turnView struct {
	Action  string            `json:"action"`
	Turn    string            `json:"turn"`
	User    string            `json:"user"`
	UI      []uiView          `json:"ui"`
	Answer  string            `json:"answer"`
	Tokens  int               `json:"tokens"`
	Cites   int               `json:"cites"`
	Sources []string          `json:"sources"`
	Log     []string          `json:"log"`
	Steps   map[string]string `json:"steps"`
	Badges  []badgeView       `json:"badges"`
	Panels  []panelView       `json:"panels"`
	Rows    [][]string        `json:"rows"`
	Intent  string            `json:"intent"`
	Status  string            `json:"status"`
	Text    string            `json:"text"` // the whole assistant bubble
}

type uiView struct{ Type, Text string }

type badgeView struct {
	Kind, Color, Text, Background string
}

type panelView struct {
	Kind, Summary string
	Open          bool
}

// turnScript reads turn n (1-based) of the page into a turnView.
const turnScript = `(() => {
  const turn = document.querySelectorAll('#messages article.turn')[%d - 1];
  const all = (sel, f) => [...turn.querySelectorAll(sel)].map(f);
  const answer = turn.querySelector('.answer');
  return {
    action: turn.dataset.action || '', turn: turn.dataset.turn || '',
    user: turn.querySelector('.bubble.user .text').textContent,
    ui: all('.ui-messages > .ui', (e) => ({Type: e.classList[1], Text: e.textContent})),
    answer: answer.textContent, tokens: Number(answer.dataset.tokens), cites: answer.querySelectorAll('a.cite').length,
    sources: all('.sources li', (e) => e.textContent), log: all('.log li', (e) => e.textContent),
    steps: Object.fromEntries(all('.step', (e) => [e.dataset.step, e.className.replace(/.*is-/, '')])),
    badges: all('.badge', (b) => ({Kind: b.dataset.badge, Color: b.className.replace('badge badge-', ''),
      Text: b.textContent, Background: getComputedStyle(b).backgroundColor})),
    panels: all('.panels details', (d) => ({Kind: d.classList[1], Summary: d.querySelector('summary').textContent, Open: d.open})),
    rows: all('.articles tbody tr', (r) => [...r.cells].map((c) => c.textContent)),
    intent: turn.querySelector('.analysis .intent')?.textContent ?? '',
    status: turn.querySelector('.status').textContent,
    text: turn.querySelector('.bubble.assistant').textContent,
  };
})()`

func (tb *tab) turn(n int) turnView {
	tb.t.Helper()
	var v turnView
	tb.eval(fmt.Sprintf(turnScript, n), &v)
	return v
}

// badges maps each badge's kind to the badge.
func (v turnView) badges() map[string]badgeView {
	out := map[string]badgeView{}
	for _, b := range v.Badges {
		out[b.Kind] = b
	}
	return out
}

func (v turnView) badgeKinds() []string {
	var out []string
	for _, b := range v.Badges {
		out = append(out, b.Kind)
	}
	return out
}

func (v turnView) panelKinds() []string {
	var out []string
	for _, p := range v.Panels {
		out = append(out, p.Kind)
	}
	return out
}

// colours are the badges' backgrounds as the browser computes them from
// app.css: the test checks the colour the eye sees, not only the class.
var colours = map[string]string{
	"green": "rgb(30, 123, 52)", "orange": "rgb(168, 80, 10)", "red": "rgb(180, 35, 24)",
	"grey": "rgb(95, 107, 122)", "info": "rgb(31, 95, 168)",
}

// String shows a view in a failure message.
func (v turnView) String() string {
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

// labels are the page's language, its send button's label and the
// language switch's value.
func (tb *tab) labels() []string {
	tb.t.Helper()
	var out []string
	tb.eval(`[document.documentElement.lang, document.getElementById('send').textContent, document.getElementById('lang').value]`, &out)
	return out
}
