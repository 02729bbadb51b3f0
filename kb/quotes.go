package kb

import (
	"regexp"
	"strings"
)

// A blockquote's marks ("> ", "> > ") are not what its page shows: the page
// shows the quote's text in a box. A GitHub alert's or an Obsidian
// callout's first line ("> [!NOTE]", "> [!info]+ Canvas embeds") shows a
// label or the title given. Left as written, a quoted line read "> [!info]+
// Canvas embeds show shapes only > Embedded canvases display shapes", and
// "note" and "info" matched questions that say them.

var (
	// quoteMarks are the blockquote marks a line starts with.
	quoteMarks = regexp.MustCompile(`^( {0,3})>(?:[ \t]*>)* ?`)
	// oneQuoteMark is the first of them.
	oneQuoteMark = regexp.MustCompile(`^ {0,3}> ?`)
	// alertLine is an alert's or a callout's first line, its marks taken
	// off: the kind, whether it folds, and the title it shows.
	alertLine = regexp.MustCompile(`^\[![A-Za-z][\w-]*\][+-]?[ \t]*(.*?)\s*$`)
)

// withoutQuoteMarks is body with its blockquotes' marks taken off and each
// alert's first line as the title it shows, a paragraph of its own (none
// when it shows only its kind). Fenced code is left as written, a shell's
// "> " prompt and all; in a quote, only the quote's marks go.
func withoutQuoteMarks(body string) string {
	if !strings.Contains(body, ">") {
		return body
	}
	var b strings.Builder
	b.Grow(len(body))
	var code fence
	depth := 0 // the marks of the quote the open fence was opened in
	for _, line := range strings.SplitAfter(body, "\n") {
		marks := 0
		switch {
		case !code.open:
			if m := quoteMarks.FindStringSubmatch(line); m != nil {
				// The indent stays: a quote in a list's item is still in it.
				line, marks = m[1]+line[len(m[0]):], strings.Count(m[0], ">")
			}
		default: // the code's own lines may start with ">": only the quote's marks go
			for marks < depth {
				m := oneQuoteMark.FindString(line)
				if m == "" {
					break
				}
				line, marks = line[len(m):], marks+1
			}
		}
		quoted := marks > 0
		if was := code.open; code.holds(line) {
			if !was {
				depth = marks
			}
			b.WriteString(line)
			continue
		}
		if a := alertLine.FindStringSubmatch(strings.TrimSpace(line)); quoted && a != nil {
			if a[1] != "" {
				b.WriteString(line[:len(line)-len(strings.TrimLeft(line, " \t"))] + a[1] + "\n\n")
			}
			continue
		}
		b.WriteString(line)
	}
	return b.String()
}
