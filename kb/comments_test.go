package kb

import (
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
