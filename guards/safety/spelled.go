package safety

import (
	"strings"
	"unicode"
)

// run is a word spelled out letter by letter: the single letters
// pieces[start:end], with the same one-character separator between each two
// of them ("k i l l", "b-o-m-b", "k.i.l.l").
type run struct {
	start, end int
	sep        rune
}

func (r run) len() int { return r.end - r.start }

// spelledRuns finds the runs of a message. Runs with different separators
// may share a letter ("a b-o-m-b"); the longer run keeps it, so the article
// stays a word of its own.
func spelledRuns(pieces []piece) []run {
	var runs []run
	for i := 1; i < len(pieces); i++ {
		if !links(pieces, i) {
			continue
		}
		r := run{start: i - 1, end: i + 1, sep: pieces[i].gap.sep}
		for r.end < len(pieces) && links(pieces, r.end) && pieces[r.end].gap.sep == r.sep {
			r.end++
		}
		if n := len(runs); n > 0 && runs[n-1].end > r.start {
			if runs[n-1].len() > r.len() {
				r.start++
			} else {
				runs[n-1].end--
			}
		}
		runs = append(runs, r)
		i = r.end - 1
	}
	return runs
}

// links reports whether pieces i-1 and i are single letters one spelling
// separator apart.
func links(pieces []piece, i int) bool {
	g := pieces[i].gap
	return isLetter(pieces[i-1]) && isLetter(pieces[i]) && g.n == 1 && isSpellingSep(g.sep)
}

func isLetter(p piece) bool { return len(p.runes) == 1 && unicode.IsLetter(p.runes[0]) }

func isSpellingSep(r rune) bool {
	return unicode.IsSpace(r) || unicode.Is(unicode.Pd, r) || isJoiner(r) || r == '·'
}

// spacedOut reports a message written with a space between letters and a
// wider gap between words ("h o w  t o"): there, every run is a word. It
// takes a spelled-out word to tell, so a double space typed between the
// words of "а я и  в шоке" does not glue them.
func spacedOut(pieces []piece, runs []run) bool {
	spelled := false
	for _, r := range runs {
		spelled = spelled || r.len() > 2 && unicode.IsSpace(r.sep) && !r.mostlyOneLetterWords(pieces)
	}
	if !spelled {
		return false
	}
	for i := 1; i < len(pieces); i++ {
		if pieces[i].gap.wide() && isLetter(pieces[i-1]) && isLetter(pieces[i]) {
			return true
		}
	}
	return false
}

// join marks the gaps of r that the reading glues. Three or more letters are
// a word; two are one only where the separator cannot be a plain space
// between words ("k.i", or "t o" in a spaced-out message), so "A B testing"
// keeps its letters. Two cases are ambiguous, and the second reading takes
// the other way:
//   - letters separated by spaces, most of them one-letter words ("я и в",
//     "а я и"), read first as separate words;
//   - a word with a one-letter word at its edge ("a b o m b"), read first as
//     one word, second with that letter apart ("a bomb").
func (r run) join(glue []bool, pieces []piece, spaced, second bool) {
	if !r.spellsAWord(spaced) {
		return
	}
	apart := r.apart(pieces, spaced)
	if apart && !second {
		return
	}
	for i := r.start + 1; i < r.end; i++ {
		glue[i] = true
	}
	if apart || !second || r.len() < 4 {
		return
	}
	lo, hi := r.start, r.end
	if isOneLetterWord(pieces[lo]) && hi-lo > 3 {
		glue[lo+1] = false
		lo++
	}
	if isOneLetterWord(pieces[hi-1]) && hi-lo > 3 {
		glue[hi-1] = false
	}
}

func (r run) spellsAWord(spaced bool) bool {
	return r.len() > 2 || r.len() == 2 && (spaced || !unicode.IsSpace(r.sep))
}

// apart reports letters that are first read as separate words.
func (r run) apart(pieces []piece, spaced bool) bool {
	return unicode.IsSpace(r.sep) && !spaced && r.mostlyOneLetterWords(pieces)
}

// twoWays reports whether some run has a second reading.
func twoWays(runs []run, pieces []piece, spaced bool) bool {
	for _, r := range runs {
		if r.spellsAWord(spaced) && (r.apart(pieces, spaced) ||
			r.len() >= 4 && (isOneLetterWord(pieces[r.start]) || isOneLetterWord(pieces[r.end-1]))) {
			return true
		}
	}
	return false
}

func (r run) mostlyOneLetterWords(pieces []piece) bool {
	n := 0
	for _, p := range pieces[r.start:r.end] {
		if isOneLetterWord(p) {
			n++
		}
	}
	return 2*n > r.len()
}

// oneLetterWords are the English and Russian words of one letter.
const oneLetterWords = "aiавикосуя"

func isOneLetterWord(p piece) bool {
	return isLetter(p) && strings.ContainsRune(oneLetterWords, p.runes[0])
}
