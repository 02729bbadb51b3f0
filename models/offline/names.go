package offline

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sgrgraph/sgrgraph/templates"
)

// names are the stems of the words a knowledge base says in half its
// articles or more (everywhere) and writes as a name: with a capital
// inside a sentence nine times in ten or more, as "Hugo" and "Obsidian"
// are, where a word of the trade is written small ("cluster", "file").
// Such a word is its product's name though it is not in nine articles of
// ten (nearlyEverywhere): a help centre's pages on formatting or on
// another program's files need not say it. Titles, headings, code and a
// sentence's first word say nothing of how a word is written.
func names(corpus []string, everywhere func(stem string) bool) map[string]bool {
	inside, capital := map[string]int{}, map[string]int{}
	for _, text := range corpus {
		fence, title := false, true
		for line := range strings.Lines(text) {
			t := strings.TrimSpace(line)
			if fenceMark(t) {
				fence = !fence
			}
			if title || fence || atxHeading(t) {
				title = false
				continue
			}
			eachWordInside(t, func(w string) {
				s := stem(strings.ToLower(w))
				if !everywhere(s) {
					return
				}
				inside[s]++
				if first, size := utf8.DecodeRuneInString(w); unicode.IsUpper(first) && strings.IndexFunc(w[size:], unicode.IsLower) >= 0 {
					capital[s]++
				}
			})
		}
	}
	out := map[string]bool{}
	for s, n := range inside {
		if n >= minNameUses && 10*capital[s] >= 9*n {
			out[s] = true
		}
	}
	return out
}

// productName is the stems a search leaves out as the product's name
// (telling): those of the product the engine names, when it names one and
// the knowledge base says them in half its articles; else, of the words
// the articles write as a name (names), the one the most articles say
// ("Obsidian", not "Markdown" or "Windows", which say what a page is
// about). The name is found when a search is first planned.
func (e *Engine) productName() map[string]bool {
	out := map[string]bool{}
	if !templates.IsNeutral(e.product) {
		for _, s := range titleStems(e.product) {
			if e.topics.everywhere(s) {
				out[s] = true
			}
		}
		return out
	}
	best := 0
	for s := range e.reading.names() {
		n := e.topics.articles[e.topics.stems[s]]
		switch {
		case n > best:
			best = n
			clear(out)
			out[s] = true
		case n == best:
			out[s] = true // no telling which names the product
		}
	}
	return out
}

// minNameUses: a word written inside sentences fewer times than this says
// too little of how it is written.
const minNameUses = 10

// eachWordInside calls fn with each word of line that stands inside a
// sentence: after a word, a comma or a closing mark, not first on the
// line nor after a full stop, a colon or a list's mark; words of inline
// code are left out.
func eachWordInside(line string, fn func(w string)) {
	code := false
	prev := rune(0) // the last character before the word that is not a space
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRuneInString(line[i:])
		switch {
		case r == '`':
			code = !code
		case unicode.IsLetter(r):
			j := i + size
			for j < len(line) {
				r2, s2 := utf8.DecodeRuneInString(line[j:])
				if !unicode.IsLetter(r2) && !unicode.IsDigit(r2) && r2 != '\'' {
					break
				}
				j += s2
			}
			if !code && (unicode.IsLetter(prev) || unicode.IsDigit(prev) || strings.ContainsRune(`,;)"'`, prev)) {
				fn(line[i:j])
			}
			prev, i = 'a', j
			continue
		}
		if !unicode.IsSpace(r) {
			prev = r
		}
		i += size
	}
}
