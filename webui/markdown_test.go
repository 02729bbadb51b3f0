package webui_test

import (
	"encoding/json"
	"testing"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// markdown runs the page's renderer (assets/markdown.js) in the browser
// on one-line cases: what answers use becomes HTML, and any HTML or
// address that could run stays text.
func markdown(t *testing.T, b *browser, url string) {
	tests := []struct {
		name string
		in   string // Markdown
		want string // HTML, with citations as cite(n) makes them
	}{
		{"a paragraph keeps its line breaks", "a\nb", "<p>a<br>b</p>"},
		{"emphasis", "**bold** and *it* and _it_", "<p><strong>bold</strong> and <em>it</em> and <em>it</em></p>"},
		{"snake_case stays a word", "set guard_mode_x now", "<p>set guard_mode_x now</p>"},
		{"code is literal", "`<b>**x**</b>`", "<p><code>&lt;b&gt;**x**&lt;/b&gt;</code></p>"},
		{"a fence is literal", "```\n<script>x</script>\n```", "<pre><code>&lt;script&gt;x&lt;/script&gt;</code></pre>"},
		{"a heading under the page's own", "# Title", "<h3>Title</h3>"},
		{"a list", "- a [1]\n- b", `<ul><li>a <a class="cite" href="#c1">[1]</a></li><li>b</li></ul>`},
		{"an ordered list keeps its start", "3. c\n4. d", `<ol start="3"><li>c</li><li>d</li></ol>`},
		{"a quote", "> q", "<blockquote><p>q</p></blockquote>"},
		{"a table", "| a | b |\n|---|---|\n| 1 | 2 |", `<div class="table-wrap"><table><thead><tr><th scope="col">a</th><th scope="col">b</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table></div>`},
		{"a web link", "[docs](https://example.com/a?b=1&c=2)", `<p><a href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer">docs</a></p>`},
		{"a bare URL", "see https://example.com/x.", `<p>see <a href="https://example.com/x" target="_blank" rel="noopener noreferrer">https://example.com/x</a>.</p>`},
		{"a javascript: link stays text", "[x](javascript:alert(1))", "<p>[x](javascript:alert(1))</p>"},
		{"a data: link stays text", "[x](data:text/html,hi)", "<p>[x](data:text/html,hi)</p>"},
		{"HTML is text", `<img src=x onerror="alert(1)">`, "<p>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;</p>"},
		{"a quote cannot leave its attribute", `[x](https://e.com/"onmouseover="alert(1))`, `<p><a href="https://e.com/&quot;onmouseover=&quot;alert(1" target="_blank" rel="noopener noreferrer">x</a>)</p>`},
		{"the renderer's marks cannot be forged", "a\u0000" + "0\u0000b", "<p>a0b</p>"},
	}
	tb := b.tab(t)
	tb.open(url)
	inputs := make([]string, len(tests))
	for i, tc := range tests {
		inputs[i] = tc.in
	}
	js, err := json.Marshal(inputs)
	require.NoError(t, err)
	var got []string
	tb.run(chromedp.Evaluate(`import('/ui/markdown.js').then((m) => `+string(js)+`.map((s) => m.render(s, (n) => '<a class="cite" href="#c' + n + '">[' + n + ']</a>')))`,
		&got, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	require.Len(t, got, len(tests))
	for i, tc := range tests {
		assert.Equal(t, tc.want, got[i], tc.name)
	}
}
