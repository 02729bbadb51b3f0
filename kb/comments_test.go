package kb

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestText(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"no comment", "# A\ntext\n", "# A\ntext\n"},
		{"a comment line goes whole", "# A\n<!-- snippet: x.go -->\n```go\ncode\n```\n", "# A\n```go\ncode\n```\n"},
		{"inline comment", "keep <!-- drop --> this\n", "keep  this\n"},
		{"a comment over lines", "a\n<!--\nnote\n-->\nb\n", "a\nb\n"},
		{"a comment in a fence is code", "```html\n<!-- shown -->\n```\n", "```html\n<!-- shown -->\n```\n"},
		{"a tilde fence", "~~~\n<!-- shown -->\n~~~\n<!-- gone -->\nend", "~~~\n<!-- shown -->\n~~~\nend"},
		{"an open comment runs to the end", "a\n<!-- never closed\nb\n", "a\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, Doc{Body: tc.in}.Text())
		})
	}
}

// FuzzText: the comments are dropped as by a plain reading of the body's
// lines one by one (withoutCommentsByLines, the reference).
func FuzzText(f *testing.F) {
	for _, s := range []string{"a\n<!--\nnote\n-->\nb\n", "~~~\n<!-- shown -->\n~~~\n<!-- gone -->\nend", "x <!-- a --> y <!-- b\nc --> d",
		"<!--", "```\n<!--\n```\n-->", "a\n\n<!-- -->\n\n", "   ```\n<!-- x -->\n    ```\n```"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		if got, want := withoutComments(body), withoutCommentsByLines(body); got != want {
			t.Fatalf("%q: %q, want %q", body, got, want)
		}
	})
}

// withoutCommentsByLines is withoutComments over the lines strings.SplitAfter
// cuts.
func withoutCommentsByLines(body string) string {
	if !strings.Contains(body, "<!--") {
		return body
	}
	var b strings.Builder
	var code fence
	inComment := false
	for _, line := range strings.SplitAfter(body, "\n") {
		if !inComment && code.holds(line) {
			b.WriteString(line)
			continue
		}
		kept, open := stripComments(line, inComment)
		inComment = open
		if strings.TrimSpace(kept) == "" && strings.TrimSpace(line) != "" {
			continue // a line that was only a comment goes whole
		}
		b.WriteString(kept)
	}
	return b.String()
}
