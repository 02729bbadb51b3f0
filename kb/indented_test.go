package kb

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestIndentedCode(t *testing.T) {
	for _, tc := range []struct {
		name string
		page string
		code []bool // for each line
	}{
		{"a block after a paragraph", "Run it:\n\n    grep -c ^error\n    wc -l\n\nDone.", []bool{false, false, true, true, true, false}},
		{"a blank line within the block is its own", "Text.\n\n    a\n\n    b\nEnd.", []bool{false, false, true, true, true, false}},
		{"a page that opens with one", "    code\nText.", []bool{true, false}},
		{"a tab indents too", "Text.\n\n\tcode", []bool{false, false, true}},
		{"a nested item is no code", "- item\n\n    - nested [[Page]]\n", []bool{false, false, false, false}},
		{"an item's next paragraph is no code", "1. Step\n\n    More of the step.\n\nText.\n\n    code", []bool{false, false, false, false, false, false, true}},
		{"an admonition's next paragraph is no code", "!!! note\n    First.\n\n    Second.", []bool{false, false, false, false}},
		{"an admonition's body after a blank line is no code", "!!! note\n\n    See [[Sync]].", []bool{false, false, false}},
		{"nor a content tab's", "=== \"Linux\"\n\n    Run it.\n\nText.\n\n    code", []bool{false, false, false, false, false, false, true}},
		{"nor a footnote's next paragraph", "[^1]: A note.\n\n    It goes on.", []bool{false, false, false}},
		{"a line of no-break spaces is no blank line", "Text.\n\u00a0\n    more", []bool{false, false, false}},
		{"a heading ends a list, and code may follow it", "- item\n## Setup\n    make [[x]]", []bool{false, false, true}},
		{"a thematic break is no list's item", "Text.\n\n* * *\n\n    code", []bool{false, false, false, false, true}},
		{"a tab after spaces reaches the fourth column", "Text.\n\n  \tcode", []bool{false, false, true}},
		{"indented right after a paragraph is its next line", "Text\n    more text", []bool{false, false}},
		{"CRLF lines", "Text.\r\n\r\n    code\r\n", []bool{false, false, true, true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c indented
			var got []bool
			for _, line := range strings.SplitAfter(tc.page, "\n") {
				got = append(got, c.holds(line))
			}
			assert.Equal(t, tc.code, got)
		})
	}
}
