package offline

import (
	"maps"
	"regexp"
	"strings"
	"unicode/utf8"
)

// A question a section's heading asks is answered by that section.
//
// Help centres and FAQs put each answer under a heading that states it
// ("Q: How do I set up auto-pay for my credit card?", "Card Replacement"),
// and the section under it is lists of steps and labels ("Via Online
// Banking:", "1. Log in …") that say little one line at a time. Put
// together line by line from several articles, such an answer quoted
// fragments of five articles where one section answered. When the
// section that answers best has a heading that holds most of what the
// question asks, the answer is that section, in its own order, its lists
// kept under their labels.

// headingTF is how often a word of the question the section's heading
// holds counts in the section's relevance: as if its text said it twice
// more, since the heading says what the whole section is about.
const headingTF = 2

// Bounds of a heading that asks the question: it holds at least two of
// the question's words and this share of their weight.
const (
	headedWords = 2
	headedShare = 2.0 / 3
)

// headingStems are the stems of a chunk's own heading, the last of its
// heading path ("Payments > Auto-pay" is about auto-pay).
func headingStems(heading string) map[string]bool {
	if i := strings.LastIndex(heading, " > "); i >= 0 {
		heading = heading[i+3:]
	}
	return stemSet(heading)
}

// stemSet is the set of the text's content words' stems (formStem).
func stemSet(text string) map[string]bool {
	out := map[string]bool{}
	for _, w := range contentWords(text) {
		out[formStem(w)] = true
	}
	return out
}

// answersWhole: what the answer quotes of the section, with its heading,
// says every word of the question: a heading that says "serve" does not
// answer how to serve with an API key when the lines quoted under it say
// nothing of keys.
func answersWhole(heading map[string]bool, quoted []candidate, weight []weighted) bool {
	said := maps.Clone(heading)
	for _, c := range quoted {
		for _, w := range contentWords(c.text) {
			said[formStem(w)] = true
		}
	}
	for _, w := range weight {
		if !said[w.stem] {
			return false
		}
	}
	return len(quoted) > 0
}

// asksHeading: the heading holds enough of the question's weighted words
// to be the question it answers.
func asksHeading(heading map[string]bool, weight []weighted) bool {
	total, held, n := 0.0, 0.0, 0
	for _, w := range weight {
		total += w.weight
		if heading[w.stem] {
			held += w.weight
			n++
		}
	}
	return n >= headedWords && held >= headedShare*total
}

// foundChunk is a found chunk and the index of its article.
type foundChunk struct {
	searchChunk
	article int
}

// quoteSection is the answer quoted from one section: its passages in
// order within maxAnswerWords, each scored below the one before so that a
// draft too long drops the last.
func quoteSection(c searchChunk, article int) []candidate {
	var out []candidate
	words := 0
	for k, p := range sectionPassages(strings.TrimPrefix(c.Text, c.Heading+"\n\n")) {
		w := len(strings.Fields(p)) + 1
		if words+w > maxAnswerWords {
			if len(out) > 0 {
				break
			}
			p = strings.Join(strings.Fields(p)[:maxAnswerWords-1], " ") + " …"
			w = maxAnswerWords
		}
		out = append(out, candidate{unit: unit{text: p, section: c.Heading}, article: article, order: k,
			score: float64(maxAnswerWords - k), words: w})
		words += w
	}
	return out
}

// sectionPassages are a section's lines as passages, in order: a
// paragraph as it is; a list's items joined under the label that
// announces them ("Via Online Banking: Log in …; Go to …"); an item with
// no label on its own. Code, tables, images, headings (a bold line of its
// own too, unless it labels what follows), rules and bold marks are left
// out, as are the lines a quote cannot stand on (a link list).
func sectionPassages(text string) []string {
	var out []string
	label := "" // the line announcing the items that follow
	var items []string
	para := []string{}
	flushItems := func() {
		switch {
		case len(items) > 0:
			var b strings.Builder
			b.WriteString(label)
			for i, it := range items {
				switch {
				case i == 0 && label == "":
				case i == 0 || strings.HasSuffix(items[i-1], ":"):
					b.WriteString(" ")
				default:
					b.WriteString("; ")
				}
				b.WriteString(it)
			}
			out = append(out, b.String())
		case label != "":
			out = append(out, label)
		}
		label, items = "", items[:0]
	}
	flushPara := func() {
		if len(para) == 0 {
			return
		}
		p := strings.TrimPrefix(strings.Join(para, " "), "A: ") // a FAQ's answer mark
		para = para[:0]
		if strings.HasSuffix(p, ":") && utf8.RuneCountInString(p) <= 200 {
			flushItems()
			label = p
			return
		}
		flushItems()
		out = append(out, p)
	}
	fence := false
	for line := range strings.Lines(text) {
		t := strings.TrimSpace(line)
		switch {
		case fenceMark(t):
			fence = !fence
			flushPara()
		case fence || strings.HasPrefix(t, "|") || strings.HasPrefix(t, "<") || imageOnly.MatchString(t):
		case t == "" || underline(t) || strings.HasPrefix(t, "#") || boldHeading(t):
			flushPara()
		case listMarker(t) > 0:
			flushPara()
			item := unmarked(t[listMarker(t):])
			if item == "" || linkOnly(item) {
				continue
			}
			if strings.HasSuffix(item, ":") && label == "" {
				flushItems()
				label = item // "1. **Mobile App**:" labels its sub-items
				continue
			}
			items = append(items, strings.TrimSuffix(item, ";"))
		default:
			if p := unmarked(t); p != "" {
				para = append(para, p)
			}
		}
	}
	flushPara()
	flushItems()
	return out
}

// boldHeading: the line is bold alone, and a heading ("**Linking to a
// heading in another note**"), not a label of what follows ("**Via
// Phone:**") nor a bold sentence ("**Deleting a vault cannot be
// undone.**").
func boldHeading(t string) bool {
	if !boldOnly(t) {
		return false
	}
	u := unmarked(t)
	return u != "" && !strings.ContainsAny(u[len(u)-1:], ":.!?")
}

// imageOnly is a line that only shows images ("![](/img/failed.png)",
// "[![build](badge.svg)](ci) ![b](y.png)"), which a quote cannot show.
var imageOnly = regexp.MustCompile(`^(?:\[?!\[[^\]]*\]\([^()\s]*(?:\([^()\s]*\)[^()\s]*)*(?:\s+"[^"]*")?\)(?:\]\([^)\s]*\))?\s*)+$`)

// unmarked is a line without its bold marks. Underscores stay: they are
// as often part of a name (`__init__`, `window.__state`) as emphasis.
func unmarked(s string) string {
	return strings.TrimSpace(strings.ReplaceAll(s, "**", ""))
}

// linkOnly: a list item that only links elsewhere ("[Card Services
// Policy](card_services_policy.md) - card payments").
func linkOnly(item string) bool {
	return strings.HasPrefix(item, "[") && strings.Contains(item, "](")
}
