package kb

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestWithoutWikiMarkup(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"a link with a label", "Notes are [[Basic formatting syntax|Markdown-formatted]] files.", "Notes are Markdown-formatted files."},
		{"a link to a page", "See [[Daily notes]].", "See Daily notes."},
		{"a link to a heading of the page", "It tries to [[#Conflict resolution|resolve conflicts]] or see [[#Conflict resolution]].",
			"It tries to resolve conflicts or see Conflict resolution."},
		{"a link to another page's heading", "Read [[Sync#Limits]].", "Read Sync > Limits."},
		{"a link to a block", "As [[Sync#^limits]] says.", "As Sync says."},
		{"an embed", "Select **Publish** ![[lucide-send.svg#icon]].", "Select **Publish**."},
		{"a block id at a line's end", "Only one device at a time. ^limit-1\nNext line.", "Only one device at a time.\nNext line."},
		{"a block id alone", "A paragraph.\n\n^blockquote-system-limitation\n", "A paragraph.\n\n\n"},
		{"a caret inside a sentence stays", "Press ^C to stop, or use 2^10.", "Press ^C to stop, or use 2^10."},
		{"a key at a line's end stays", "Stop it with ^C", "Stop it with ^C"},
		{"a shell's test is no link", "Run `sh` with if [[ -f $f ]]; then.", "Run `sh` with if [[ -f $f ]]; then."},
		{"a Markdown link whose text is bracketed", "See [[1]](https://example.com/ref).", "See [[1]](https://example.com/ref)."},
		{"a version's caret is no block id", "Install react ^18", "Install react ^18"},
		{"a block id in a file of CRLF lines", "Only one device. ^limit-1\r\nNext.", "Only one device.\r\nNext."},
		{"code keeps the syntax", "Type `[[` to link.\n```\n[[Note|label]] ^id\n```", "Type `[[` to link.\n```\n[[Note|label]] ^id\n```"},
		{"indented code keeps it", "Search the log:\n\n    grep -c ^error\n    x = m[[0]]\n\nSee [[Logs]].",
			"Search the log:\n\n    grep -c ^error\n    x = m[[0]]\n\nSee Logs."},
		{"a fence indented four spaces is indented code", "Text.\n\n    ```\n    [[x]]\n\nSee [[Logs]].", "Text.\n\n    ```\n    [[x]]\n\nSee Logs."},
		{"a nested item is no code", "- Sync\n\n    - See [[Sync#Limits]]. ^limits", "- Sync\n\n    - See Sync > Limits."},
		{"inline code keeps it", "Write `[[Note|label]]` for a label.", "Write `[[Note|label]]` for a label."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, withoutWikiMarkup(tc.in))
		})
	}
}
