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
	// wikiLink is a link, with its label when it gives one. Its page's
	// name starts with no space: "[[ -f $f ]]" is a shell's test.
	wikiLink = regexp.MustCompile(`\[\[([^\s\[\]|][^\[\]|\n]*)(?:\|([^\[\]\n]*))?\]\]`)
	// blockID is a block's id at the end of a line, or a line of its own:
	// two characters or more, a letter or a hyphen among them ("^18" is a
	// version's range).
	blockID = regexp.MustCompile(`(?:^|[ \t])\^([A-Za-z0-9-]{2,})[ \t]*(\r?)$`)
)

// withoutWikiMarkup is body with each wiki link as the text its page shows
// (wikiText), without embeds and block ids. Code, fenced, indented
// (indented) or in backticks, is left as written.
func withoutWikiMarkup(body string) string {
	if !strings.Contains(body, "[[") && !strings.Contains(body, "^") {
		return body
	}
	var b strings.Builder
	b.Grow(len(body))
	var code fence
	var block indented
	for _, line := range strings.SplitAfter(body, "\n") {
		// Indented code first: a fence indented four spaces is its text.
		if block.holds(line) || code.holds(line) {
			b.WriteString(line)
			continue
		}
		text, end := strings.CutSuffix(line, "\n")
		text = outsideCode(text, func(s string) string {
			return wikiLinksRead(wikiEmbed.ReplaceAllString(s, ""))
		})
		if m := blockID.FindStringSubmatchIndex(text); m != nil && strings.IndexFunc(text[m[2]:m[3]], isLetterOrHyphen) >= 0 {
			text = text[:m[0]] + text[m[4]:m[5]]
		}
		b.WriteString(text)
		if end {
			b.WriteString("\n")
		}
	}
	return b.String()
}

// wikiLinksRead is s with each wiki link as the text it shows (wikiText);
// one a parenthesis follows is a Markdown link whose text is in brackets
// ("[[1]](https://…)"), and stays.
func wikiLinksRead(s string) string {
	var b strings.Builder
	last := 0
	for _, m := range wikiLink.FindAllStringIndex(s, -1) {
		if m[1] < len(s) && s[m[1]] == '(' {
			continue
		}
		b.WriteString(s[last:m[0]])
		b.WriteString(wikiText(s[m[0]:m[1]]))
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

func isLetterOrHyphen(r rune) bool { return r == '-' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' }

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
