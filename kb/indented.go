package kb

import (
	"regexp"
	"strings"
)

// An indented code block is lines indented by four spaces or a tab after
// a blank line, as Markdown reads them. Its text is code, left as written
// like a fence's: "    grep ^error app.log" is a shell's line, not a line
// with a block id.

// listItem is a line that starts a list's item: "- ", "* ", "+ ", "1. ",
// "2) ", indented by three spaces at most.
var listItem = regexp.MustCompile(`^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)`)

// indented follows a page's indented code blocks line by line. A list's
// lines are indented as much (a nested item, an item's next paragraph),
// and so is the body of a block that indents it (an MkDocs admonition):
// only a line that follows a blank line after text at the margin, not in
// a list, opens one.
type indented struct {
	open    bool // within an indented code block
	blank   bool // the line before was blank
	deep    bool // the last line that was not blank was indented four spaces or more
	list    bool // within a list
	started bool // a line has been read
}

// holds reports whether line is a line of an indented code block, and
// follows the page. A blank line after a block's line is the block's:
// whether the block goes on is known only from the next line.
func (c *indented) holds(line string) bool {
	t := strings.TrimRight(line, "\r\n")
	if strings.TrimSpace(t) == "" {
		c.blank = true
		return c.open
	}
	deep := strings.HasPrefix(t, "    ") || strings.HasPrefix(t, "\t")
	atStart := !c.started
	c.started = true
	switch {
	case deep:
		c.open = c.open || (c.blank || atStart) && !c.deep && !c.list
	case listItem.MatchString(t):
		c.open, c.list = false, true
	default:
		c.open = false
		if c.blank && t[0] != ' ' {
			c.list = false // a paragraph at the margin ends the list
		}
	}
	c.blank, c.deep = false, deep
	return c.open
}
