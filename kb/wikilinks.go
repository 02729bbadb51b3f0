package kb

import (
	"regexp"
	"strings"
)

// Wiki-style knowledge bases (Obsidian, Foam, Dendron) link with double
// brackets and mark blocks with an id, which their pages never show as
// written: "[[Basic formatting syntax|Markdown-formatted]]" shows
// "Markdown-formatted", "[[Daily notes]]" shows "Daily notes",
// "[[#Conflict resolution]]" shows "Conflict resolution", an embed
// ("![[lucide-send.svg#icon]]") shows an image or another page, and a
// block's id ("^system-limitation") nothing. Quoted as written, an answer
// read "^blockquote-system-limitation" as a line of its own.

var (
	// wikiEmbed is an embed: "![[image.png]]", "![[Note#Heading]]".
	wikiEmbed = regexp.MustCompile(`[ \t]*!\[\[[^\[\]\n]*\]\]`)
	// wikiLink is a link, with its label when it gives one.
	wikiLink = regexp.MustCompile(`\[\[([^\[\]|\n]*)(?:\|([^\[\]\n]*))?\]\]`)
	// blockID is a block's id at the end of a line, or a line of its own.
	blockID = regexp.MustCompile(`(?:^|[ \t])\^[A-Za-z0-9][A-Za-z0-9-]+[ \t]*$`)
)

// withoutWikiMarkup is body with each wiki link as the text its page shows
// (wikiText), without embeds and block ids. Code is left as written.
func withoutWikiMarkup(body string) string {
	if !strings.Contains(body, "[[") && !strings.Contains(body, "^") {
		return body
	}
	var b strings.Builder
	b.Grow(len(body))
	var code fence
	for _, line := range strings.SplitAfter(body, "\n") {
		if code.holds(line) {
			b.WriteString(line)
			continue
		}
		text, end := strings.CutSuffix(line, "\n")
		text = outsideCode(text, func(s string) string {
			s = wikiEmbed.ReplaceAllString(s, "")
			return wikiLink.ReplaceAllStringFunc(s, wikiText)
		})
		text = blockID.ReplaceAllString(text, "")
		b.WriteString(text)
		if end {
			b.WriteString("\n")
		}
	}
	return b.String()
}

// wikiText is what a wiki link shows: its label, else its target, a
// heading after the page's name as "Page > Heading" and alone as the
// heading, a block's id left out.
func wikiText(link string) string {
	m := wikiLink.FindStringSubmatch(link)
	if strings.TrimSpace(m[2]) != "" {
		return strings.TrimSpace(m[2])
	}
	page, anchor, _ := strings.Cut(m[1], "#")
	page, anchor = strings.TrimSpace(page), strings.TrimSpace(anchor)
	switch {
	case anchor == "" || strings.HasPrefix(anchor, "^"):
		return page
	case page == "":
		return anchor
	default:
		return page + " > " + anchor
	}
}
