package offline

import (
	"fmt"
	"strings"
)

// phrases are lower-case phrases any one of which, found in a text, makes
// a match: the engine's request, question-kind and section rules. A phrase
// may start with ^ (it opens the text, white space aside) and start or end
// with \b (a word boundary there, ASCII letters, digits and _ making words,
// as in RE2). A handful of substring searches is several times faster than
// a regular expression of as many alternatives, which Go runs without a
// literal prefix to skip by.
type phrases []phrase

type phrase struct {
	text               string
	opens              bool // ^: the text starts with it
	boundBefore, bound bool // \b before it, after it
}

// newPhrases reads phrases written as above; a malformed one is a
// programming error, found when the package loads.
func newPhrases(written ...string) phrases {
	out := make(phrases, len(written))
	for i, w := range written {
		p := phrase{text: w}
		p.text, p.opens = strings.CutPrefix(p.text, "^")
		p.text, p.boundBefore = strings.CutPrefix(p.text, `\b`)
		p.text, p.bound = strings.CutSuffix(p.text, `\b`)
		switch {
		case p.text == "" || strings.ToLower(p.text) != p.text:
			panic(fmt.Sprintf("phrase %q: want a lower-case phrase", w))
		case p.boundBefore && !wordByte(p.text[0]), p.bound && !wordByte(p.text[len(p.text)-1]):
			panic(fmt.Sprintf("phrase %q: a \\b must stand next to a letter, digit or _", w))
		}
		out[i] = p
	}
	return out
}

// text is a text prepared for phrases: lower-cased once.
type text string

func lowered(s string) text { return text(strings.ToLower(s)) }

func (ps phrases) match(t text) bool {
	for _, p := range ps {
		if p.in(string(t)) {
			return true
		}
	}
	return false
}

func (p phrase) in(t string) bool {
	if p.opens {
		t = strings.TrimLeft(t, " \t\n\f\r")
		return strings.HasPrefix(t, p.text) && (!p.bound || boundaryAt(t, len(p.text)))
	}
	for from := 0; ; {
		i := strings.Index(t[from:], p.text)
		if i < 0 {
			return false
		}
		at := from + i
		if (!p.boundBefore || boundaryAt(t, at)) && (!p.bound || boundaryAt(t, at+len(p.text))) {
			return true
		}
		from = at + 1
	}
}

// boundaryAt: t[:i] does not end in a word byte or t[i:] does not start
// with one (for a phrase whose edge is a word byte, that is RE2's \b).
func boundaryAt(t string, i int) bool {
	return i == 0 || i == len(t) || !wordByte(t[i-1]) || !wordByte(t[i])
}

// wordByte is RE2's \w: an ASCII letter, digit or underscore. A byte of a
// multi-byte letter is not one, as in RE2.
func wordByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}
