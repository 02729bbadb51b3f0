package offline

import (
	"regexp"
	"strings"
	"unicode"
)

// Boilerplate is what a page says about itself or about other pages, not
// about what a question asks: a line that sends the reader elsewhere
// ("See Directory Sources.", "For more information, see …") or to the
// lines after it ("Follow the steps below."), a heading
// repeated as a line of a list (a table of contents, a list of links to
// other pages: "Working with an unpublished minor version"), and a line
// that reads like front matter or a reference page's field list
// ("Environment: `CARGO_NET_OFFLINE`", "Default: host platform"). Quoted
// away from its page it tells the reader nothing; the answer quotes none.

// pointsElsewhere opens a sentence that only sends the reader to another
// page or section.
var pointsElsewhere = regexp.MustCompile(`(?i)^(see|read more|learn more|for more( information| details)?|for details|more on this|подробнее|см\.)\b`)

// pointsAhead ends a sentence that announces what the lines after it say
// ("Follow the steps below.", "This will output the following HTML."):
// quoted without them, it tells the reader there is more and not what.
var pointsAhead = regexp.MustCompile(`(?i)(^|[^\pL\pN])(below|the following( \pL+)?|these steps|as follows|ниже|следующ\pL*( \pL+)?)\s*[.:]?\**$`)

// metaLabels are the labels of front matter and of a reference page's
// field lists, whose one value says nothing without the field it is of.
var metaLabels = set("title", "description", "tags", "weight", "date", "slug", "aliases", "draft", "layout", "kb_id",
	"linktitle", "menu", "toc", "categories", "author", "lastmod", "keywords", "type", "default", "environment",
	"required", "env")

// boilerplate: text is such a line (see above); headings are the
// knowledge base's titles and headings, as headingKey gives them.
func boilerplate(text string, headings map[string]bool) bool {
	t := strings.TrimSpace(text)
	if pointsElsewhere.MatchString(t) || pointsAhead.MatchString(t) {
		return true
	}
	if !strings.ContainsAny(strings.TrimRight(t, ".!?"), ".!?") && headings[headingKey(t)] {
		return true // a heading again, not a sentence
	}
	label, value, ok := strings.Cut(t, ":")
	if !ok || strings.ContainsFunc(label, func(r rune) bool { return !unicode.IsLetter(r) && r != '_' && r != ' ' }) ||
		len(strings.Fields(label)) > 2 {
		return false
	}
	value = strings.TrimSpace(value)
	return metaLabels[strings.ToLower(strings.Fields(label + " x")[0])] && len(strings.Fields(value)) <= 6 && !strings.HasSuffix(value, ".") ||
		len(strings.Fields(label)) == 1 && strings.HasPrefix(value, "`") && !strings.ContainsAny(value, ".!?")
}

// headingKey is a heading as a line quoting it is compared with it: its
// letters and digits, lower-cased, one space between words.
func headingKey(text string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }), " ")
}

// headingsOf are the titles and Markdown headings (outside code) of
// corpus, as headingKey gives them.
func headingsOf(corpus []string) map[string]bool {
	out := map[string]bool{}
	for _, text := range corpus {
		fence := false
		for i, line := range strings.Split(text, "\n") {
			t := strings.TrimSpace(line)
			if fenceMark(t) {
				fence = !fence
				continue
			}
			if i == 0 || !fence && strings.HasPrefix(t, "#") {
				if k := headingKey(strings.TrimLeft(t, "#")); k != "" {
					out[k] = true
				}
			}
		}
	}
	return out
}
