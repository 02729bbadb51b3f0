package kb

import "strings"

// Text is what the article says: its body without the HTML comments, the
// blockquotes' marks (quotes.go), wiki links' brackets (wikilinks.go) and
// the site generator's markup (markup.go), which a rendered article does
// not show. It is what is indexed, quoted and answered from.
func (d Doc) Text() string {
	return withoutSiteMarkup(withoutWikiMarkup(withoutQuoteMarks(withoutComments(d.Body))))
}

// withoutComments drops the HTML comments of a Markdown body, outside code
// fences: a comment is a note to the writers that a rendered article does
// not show, so it is neither indexed nor quoted as evidence. A comment
// left open runs to the end, as a browser reads it.
func withoutComments(body string) string {
	if !strings.Contains(body, "<!--") {
		return body
	}
	var b strings.Builder
	b.Grow(len(body)) // the text is most of the body: one allocation
	var code fence
	inComment := false
	for rest := body; rest != ""; {
		line := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i+1], rest[i+1:]
		} else {
			rest = ""
		}
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

// stripComments removes the comment spans of one line; inside says whether
// the line starts within a comment, and the result whether it ends in one.
func stripComments(line string, inside bool) (string, bool) {
	if !inside && !strings.Contains(line, "<!--") {
		return line, false // most lines: kept as they are, not copied
	}
	var b strings.Builder
	for line != "" {
		if inside {
			end := strings.Index(line, "-->")
			if end < 0 {
				if strings.HasSuffix(line, "\n") {
					b.WriteString("\n")
				}
				return b.String(), true
			}
			line, inside = line[end+3:], false
			continue
		}
		start := strings.Index(line, "<!--")
		if start < 0 {
			b.WriteString(line)
			break
		}
		b.WriteString(line[:start])
		line, inside = line[start+4:], true
	}
	return b.String(), inside
}
