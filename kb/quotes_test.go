package kb

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestWithoutQuoteMarks(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"a quote's text", "Before.\n\n> Quoted text\n> goes on.\n\nAfter.", "Before.\n\nQuoted text\ngoes on.\n\nAfter."},
		{"a nested quote", "> > Deep text", "Deep text"},
		{"a GitHub alert shows its kind only", "> [!NOTE]\n> Back up first.", "Back up first."},
		{"a callout with a title", "> [!info]+ Canvas embeds show shapes only\n> Embedded canvases display shapes.",
			"Canvas embeds show shapes only\n\nEmbedded canvases display shapes."},
		{"an alert's line outside a quote is text", "[!NOTE] is how an alert starts.", "[!NOTE] is how an alert starts."},
		{"a shell's prompt in code stays", "```\n> npm install\n```\n> quoted", "```\n> npm install\n```\nquoted"},
		{"code inside a quote", "> ```\n> > not a mark\n> ```\n> text", "```\n> not a mark\n```\ntext"},
		{"code inside a nested quote", "> > ```\n> > x = 1\n> > ```\n> > after\n\n## H", "```\nx = 1\n```\nafter\n\n## H"},
		{"an alert in a file of CRLF lines", "> [!NOTE]\r\n> Back up first.\r\n", "Back up first.\r\n"},
		{"a quote in a list's item stays in it", "- item\n  > quoted", "- item\n  quoted"},
		{"marks with spaces between", ">  > deep", "deep"},
		{"an alert in a list's item", "- item\n  > [!TIP] Keep a copy\n  > Back up first.", "- item\n  Keep a copy\n\n  Back up first."},
		{"a comparison in a sentence stays", "Use a value > 3.", "Use a value > 3."},
		{"four spaces: indented code", "    > kept", "    > kept"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, withoutQuoteMarks(tc.in))
		})
	}
}
