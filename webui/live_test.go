package webui_test

import (
	"context"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/models"
	"github.com/sgrgraph/sgrgraph/server"
)

// heldAgent is an agent whose model holds every call until the turn is
// cancelled, and says so on stopped: a turn that runs until Stop.
func heldAgent(t *testing.T) (*agent.Agent, <-chan struct{}) {
	t.Helper()
	stopped := make(chan struct{}, 4)
	held := func(ctx context.Context, _ []*schema.Message, _ *model.Options) ([]*schema.Message, error) {
		<-ctx.Done()
		stopped <- struct{}{}
		return nil, ctx.Err()
	}
	cfg := config.Default()
	cfg.KB.CacheDir = t.TempDir()
	store := checkpoint.NewMemory()
	a, err := agent.New(context.Background(), cfg, agent.Options{Knowledge: agents.enforce.Knowledge(), Model: models.New("Held", held), Store: store})
	require.NoError(t, err)
	t.Cleanup(func() { a.Close(); store.Close() })
	return a, stopped
}

// modelDown: a model service that refuses connections is a failure on the
// page: a plain message in the reader's words, the running step marked
// failed, no address or program error, and the question back in the box.
func modelDown(t *testing.T, b *browser) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Addr: &net.TCPAddr{IP: net.IPv4(10, 0, 0, 7), Port: 8000}, Err: syscall.ECONNREFUSED}
	down := models.New("Down", func(context.Context, []*schema.Message, *model.Options) ([]*schema.Message, error) {
		return nil, refused
	})
	cfg := config.Default()
	cfg.KB.CacheDir = t.TempDir()
	store := checkpoint.NewMemory()
	a, err := agent.New(context.Background(), cfg, agent.Options{Knowledge: agents.enforce.Knowledge(), Model: down, Store: store})
	require.NoError(t, err)
	t.Cleanup(func() { a.Close(); store.Close() })
	url := serveUI(t, a, server.Options{})
	for _, tc := range []struct{ lang, status string }{
		{"en-US,en", "The assistant's model service is unavailable right now, so there is no answer."},
		{"ru-RU,ru;q=0.9,en;q=0.5", "Сервис модели ассистента сейчас недоступен, поэтому ответа нет."},
	} {
		t.Run(tc.lang[:2], func(t *testing.T) {
			tb := b.tab(t, chromedp.ActionFunc(func(ctx context.Context) error {
				_, _, _, ua, _, err := cdpbrowser.GetVersion().Do(ctx)
				if err != nil {
					return err
				}
				return emulation.SetUserAgentOverride(ua).WithAcceptLanguage(tc.lang).Do(ctx)
			}))
			tb.open(url)
			tb.run(chromedp.SendKeys("#input", question), enter(0), until(`#messages .bubble.assistant[aria-busy="false"]`), untilTrue(idle))
			v := tb.turn(1)
			assert.True(t, strings.HasPrefix(v.Status, tc.status), v.Status)
			assert.Equal(t, "done", v.Steps["guardian"])
			assert.Equal(t, "failed", v.Steps["plan"], "the step that failed says so")
			assert.Empty(t, v.Answer)
			for _, leak := range []string{"10.0.0.7", "dial tcp", "connection refused", "sgr_plan"} {
				assert.NotContains(t, v.Text, leak)
			}
			var input string
			tb.eval(`document.getElementById('input').value`, &input)
			assert.Equal(t, question, input, "nothing the user typed is lost")
		})
	}
}

// stopped: Stop cancels the turn in flight, on the page and on the server.
func stopped(t *testing.T, b *browser) {
	a, modelStopped := heldAgent(t)
	url := serveUI(t, a, server.Options{})
	tb := b.tab(t)
	tb.open(url)
	tb.run(chromedp.SendKeys("#input", question), enter(0),
		untilTrue(`document.querySelector('#messages .step.is-active') !== null && !document.getElementById('stop').hidden`))
	tb.run(chromedp.Click("#stop"), until(`#messages .bubble.assistant[aria-busy="false"]`))
	v := tb.turn(1)
	assert.Equal(t, "Stopped: the turn was cancelled.", v.Status)
	for step, state := range v.Steps {
		assert.NotEqual(t, "active", state, "%s shows as running after Stop", step)
	}
	select {
	case <-modelStopped:
	case <-time.After(10 * time.Second):
		t.Fatal("the server's turn went on after Stop")
	}
	var state struct {
		SendDisabled bool `json:"sendDisabled"`
		StopHidden   bool `json:"stopHidden"`
	}
	tb.eval(`({sendDisabled: document.getElementById('send').disabled, stopHidden: document.getElementById('stop').hidden})`, &state)
	assert.False(t, state.SendDisabled, "a next question can be sent")
	assert.True(t, state.StopHidden)
}

// retried: the tool calls, a failed try of the model server and a draft
// the Guardian sent back show as the CLI prints them ([error], [guardian:
// VERDICT reasons]), and the judge and search steps go round again. The offline engine never
// fails or writes a draft the Guardian rejects, so the events are given to
// the page's own turn view.
func retried(t *testing.T, b *browser, url string) {
	tb := b.tab(t)
	tb.open(url)
	const script = `(async () => {
	  const { Turn } = await import('/ui/turn.js');
	  const turn = new Turn(document.getElementById('messages'), 'q');
	  const steps = [];
	  const step = () => steps.push([...turn.stepsEl.children].map((e) => e.dataset.step + ':' + e.className.replace(/.*is-/, '')).join(' '));
	  for (const ev of [
	    {kind: 'node_start', node: 'guardian_verify'}, {kind: 'node_start', node: 'sgr_plan'}, {kind: 'node_start', node: 'agent_model'},
	    {kind: 'tool_call', node: 'call_tool', tool: 'search_kb', text: '{"query":"guard mode"}'},
	    {kind: 'tool_call', node: 'call_tool', tool: 'lookup_order', text: '{"id":7}'},
	    {kind: 'retry', node: 'agent_model', error: 'model try 1 failed: HTTP 503'},
	    {kind: 'node_start', node: 'contract_check'},
	    {kind: 'verdict', node: 'contract_check', verdict: {verdict: 'RETRY', reasons: ['no citations', 'no evidence']}},
	    {kind: 'node_start', node: 'retry_bump'}, {kind: 'node_start', node: 'agent_model'},
	  ]) { turn.event(ev); step(); }
	  return {log: [...turn.logEl.children].map((e) => e.textContent), steps};
	})()`
	var got struct {
		Log   []string `json:"log"`
		Steps []string `json:"steps"`
	}
	tb.run(chromedp.Evaluate(script, &got, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	assert.Equal(t, []string{"Searching: guard mode", `Calling lookup_order: {"id":7}`, "[model try 1 failed: HTTP 503]",
		"[guardian: RETRY no citations; no evidence] The draft was withdrawn."}, got.Log)
	require.Len(t, got.Steps, 10)
	assert.Equal(t, "guardian:done plan:done search:active judge:pending", got.Steps[5], "the search at work")
	assert.Equal(t, "guardian:done plan:done search:done judge:active", got.Steps[6], "the judge at work")
	assert.Equal(t, "guardian:done plan:done search:active judge:done", got.Steps[9], "back to the search")
}
