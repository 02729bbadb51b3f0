package studio_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/sgrtest/servers"
	"github.com/sgrgraph/sgrgraph/studio"
)

// screenshots, when set, is where the browser test also writes its
// screenshots: go test ./studio -run TestBrowser -args -screenshots ../docs/images
var screenshots = flag.String("screenshots", os.Getenv("SGRGRAPH_SCREENSHOTS"), "also write the browser test's screenshots to this directory (docs/images)")

// gates keep a run in a node until the test opens the node's gate.
type gates struct {
	mu      sync.Mutex
	gate    map[string]chan struct{}
	entered map[string]chan struct{}
}

func newGates(nodes ...string) *gates {
	g := &gates{gate: map[string]chan struct{}{}, entered: map[string]chan struct{}{}}
	for _, n := range nodes {
		g.gate[n], g.entered[n] = make(chan struct{}), make(chan struct{})
	}
	return g
}

func (g *gates) hold(ctx context.Context, node string) error {
	g.mu.Lock()
	gate, entered := g.gate[node], g.entered[node]
	g.mu.Unlock()
	if gate == nil {
		return nil
	}
	select {
	case <-entered:
	default:
		close(entered)
	}
	select {
	case <-gate:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (g *gates) open(node string) { close(g.gate[node]) }

// TestBrowser drives the studio in a real Chromium: a run's node lights up
// as it runs and the light moves on; a checkpoint opens with its state;
// an edited field forks the thread, whose new branch shows in the history
// and pauses for a person, who answers.
func TestBrowser(t *testing.T) {
	g := newGates("write", "judge")
	ts, _ := servePost(t, g.hold, studio.Options[*post]{})

	opts := append(servers.ChromiumOptions(t), chromedp.WindowSize(1280, 860))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(alloc)
	defer cancel()
	ctx, stop := context.WithTimeout(ctx, 60*time.Second)
	defer stop()
	var mu sync.Mutex
	var problems []string
	chromedp.ListenTarget(ctx, func(ev any) {
		var p string
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			p = "exception: " + e.ExceptionDetails.Error()
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.APITypeError {
				p = "console.error"
				for _, a := range e.Args {
					p += " " + string(a.Value) + a.Description
				}
			}
		case *cdplog.EventEntryAdded:
			if e.Entry.Level == cdplog.LevelError && e.Entry.Source != cdplog.SourceNetwork {
				p = string(e.Entry.Source) + ": " + e.Entry.Text
			}
		}
		if p != "" {
			mu.Lock()
			problems = append(problems, p)
			mu.Unlock()
		}
	})
	defer func() {
		mu.Lock()
		defer mu.Unlock()
		for _, p := range problems {
			t.Errorf("the page reported: %s", p)
		}
	}()
	do := func(actions ...chromedp.Action) {
		t.Helper()
		require.NoError(t, chromedp.Run(ctx, actions...))
	}
	until := func(expr string) chromedp.Action {
		return chromedp.Poll(expr, nil, chromedp.WithPollingInterval(20*time.Millisecond))
	}
	node := func(path, class string) string {
		return fmt.Sprintf(`document.querySelector('#graph g.node[data-node="%s"]').classList.contains(%q)`, path, class)
	}
	do(cdplog.Enable(), chromedp.Navigate(ts.URL+"/studio"), until(`document.body.dataset.ready === "true"`))

	// A run, held in write, then in judge: the light moves.
	do(chromedp.SetValue("#thread-id", "live", chromedp.ByID), chromedp.SetValue("#input", "go", chromedp.ByID), chromedp.Click("#run", chromedp.ByID))
	do(until(node("write", "active")))
	shot(t, ctx, "studio-live.png")
	g.open("write")
	do(until(node("judge", "active") + " && !" + node("write", "active") + " && " + node("write", "visited")))
	g.open("judge")
	do(until(`!document.body.dataset.running && document.querySelectorAll('#checkpoints li').length >= 4`),
		until(node("reject", "visited")+" && !"+node("judge", "active")))
	var statusText string
	do(chromedp.Text("#status", &statusText, chromedp.ByID))
	require.Equal(t, "the run ended", statusText)

	// Open the checkpoint written after write: its state and what changed.
	afterWrite := `[...document.querySelectorAll('#checkpoints li')].find(li => li.querySelector('.what').textContent === 'write')`
	do(chromedp.Evaluate(afterWrite+`.querySelector('button').click()`, nil),
		until(`!document.getElementById('detail').hidden && document.querySelector('#diff tr[data-field="draft"]') !== null`))
	var state string
	do(chromedp.Evaluate(`document.getElementById('detail-state').textContent`, &state))
	require.Contains(t, state, `"draft": "a draft about go"`)

	// Edit the draft and fork: the new branch runs judge and publish, and
	// waits for a person.
	do(chromedp.SetValue("#edit-field", "draft", chromedp.ByID),
		chromedp.Evaluate(`document.getElementById('edit-field').dispatchEvent(new Event('change'))`, nil),
		chromedp.SetValue("#edit-value", `"a long and careful draft about go"`, chromedp.ByID),
		chromedp.Click("#fork", chromedp.ByID))
	do(until(`!document.body.dataset.running && document.querySelector('#checkpoints li[data-branch="2"]') !== null && !document.getElementById('interrupts').hidden`))
	var branch2, interrupt string
	do(chromedp.Evaluate(`[...document.querySelectorAll('#checkpoints li[data-branch="2"] .what')].map(e => e.textContent).join(",")`, &branch2),
		chromedp.Text("#interrupt-list", &interrupt, chromedp.ByID))
	require.Equal(t, "paused,judge,edit", branch2, "the new branch, newest first, starts with the edit")
	require.Contains(t, interrupt, `publish \"a long and careful draft about go\"?`)
	do(chromedp.Evaluate(`[...document.querySelectorAll('#checkpoints li[data-branch="2"]')].find(li => li.querySelector('.what').textContent === 'judge').querySelector('button').click()`, nil),
		until(`document.querySelector('#detail-decisions li') !== null && document.getElementById('detail-decisions').textContent.includes('DT-P row 1')`))
	shot(t, ctx, "studio-fork.png")

	// Answer the interrupt: the branch publishes and ends.
	do(chromedp.Click("#resume", chromedp.ByID),
		until(`!document.body.dataset.running && document.getElementById('interrupts').hidden`),
		chromedp.Text("#status", &statusText, chromedp.ByID))
	require.Equal(t, "the run ended", statusText)
	require.NoError(t, chromedp.Run(ctx, until(node("publish", "visited"))))
}

// shot saves a screenshot of the page, and into -screenshots.
func shot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	var png []byte
	require.NoError(t, chromedp.Run(ctx, chromedp.CaptureScreenshot(&png)))
	require.NoError(t, os.WriteFile(filepath.Join(t.TempDir(), name), png, 0o644))
	if dir := strings.TrimSpace(*screenshots); dir != "" {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), png, 0o644))
	}
}
