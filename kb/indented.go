package kb

import (
	"regexp"
	"strings"
)

// An indented code block is lines indented by four spaces or a tab after
// a blank line. Its text is code, left as written like a fence's: "    grep
// -c ^error" is a shell's line, not a line ending in a block id. Markdown's
// own rule reads a list's indent and lazy lines too; this one reads
// enough of it to tell code from the indented text around it.

// listItem is a line that starts a list's item: "- ", "* ", "+ ", "1. ",
// "2) ", indented by three spaces at most.
var listItem = regexp.MustCompile(`^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)`)

// indented follows a page's indented code blocks line by line. A list's
// lines are indented as much (a nested item, an item's next paragraph),
// and so is the body of a block that indents it (an MkDocs admonition or
// content tab, a footnote): only a line that follows a blank line after
// text at the margin, not in a list nor such a body, opens one.
type indented struct {
	open   bool // within an indented code block
	inText bool // the line before is text: not blank, nor a heading, nor the page's start
	deep   bool // the last line that was not blank was indented four spaces or more
	list   bool // within a list, or the indented body of a block
}

var (
	// footnote is a footnote's definition, whose next paragraphs are indented.
	footnote = regexp.MustCompile(`^ {0,3}\[\^[^\]]+\]:`)
	// blockEnd is a line that ends the block before it, as a blank line
	// does: an ATX heading ("## Care") or a thematic break ("* * *", which
	// is no list's item). Code may follow it directly.
	blockEnd = regexp.MustCompile(`^ {0,3}(?:#{1,6}(?:[ \t].*)?|(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$`)
)

// indentOf is the column a line's text starts at, a tab reaching the next
// multiple of four.
func indentOf(line string) int {
	col := 0
	for _, r := range line {
		switch r {
		case ' ':
			col++
		case '\t':
			col += 4 - col%4
		default:
			return col
		}
	}
	return col
}

// holds reports whether line is a line of an indented code block, and
// follows the page. A blank line after a block's line is the block's:
// whether the block goes on is known only from the next line.
func (c *indented) holds(line string) bool {
	t := strings.TrimRight(line, "\r\n")
	if strings.Trim(t, " \t") == "" { // Markdown's blank: spaces and tabs only
		c.inText = false
		return c.open
	}
	deep := indentOf(t) >= 4
	ended := false // the line ends its block: the next may be code
	switch {
	case deep:
		c.open = c.open || !c.inText && !c.deep && !c.list
	case blockEnd.MatchString(t):
		c.open, c.list, ended = false, false, true
	case listItem.MatchString(t) || footnote.MatchString(t) || indentedAdmonition.MatchString(strings.TrimSpace(t)):
		c.open, c.list = false, true
	default:
		c.open = false
		if !c.inText && t[0] != ' ' {
			c.list = false // a paragraph at the margin ends the list
		}
	}
	c.inText, c.deep = !ended, deep
	return c.open
}
