package safety

import (
	"strings"
	"unicode"
)

// normalize turns a message into lower-case words separated by single spaces,
// undoing the tricks used to slip past a word list: mixed case, ё, invisible
// characters, look-alike letters from the other alphabet, leetspeak digits
// and symbols, and words spelled out letter by letter ("k i l l", "k.i.l.l").
// The result starts and ends with a space, so every word starts after one.
func normalize(text string) string {
	var words []string
	var cur []rune
	flush := func() {
		if w := fixWord(cur); w != "" {
			words = append(words, w)
		}
		cur = nil
	}
	for _, r := range strings.ToLower(text) {
		switch {
		case isInvisible(r):
			continue
		case unicode.IsLetter(r) || unicode.IsDigit(r) || isLeetSymbol(r):
			cur = append(cur, r)
		case isJoiner(r) && len(cur) > 0:
			// Dropped inside a word ("вз/ломать", "k.i.l.l"); a space after it still ends the word.
		default:
			flush()
		}
	}
	flush()
	return " " + strings.Join(joinSpelledOut(words), " ") + " "
}

func isInvisible(r rune) bool {
	switch r {
	case '\u00ad', '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff':
		return true
	}
	return unicode.Is(unicode.Mn, r) // combining marks, e.g. stacked accents
}

func isJoiner(r rune) bool { return strings.ContainsRune("./*_|\\", r) }

func isLeetSymbol(r rune) bool { return r == '@' || r == '$' || r == '!' }

// fixWord maps one word into a single alphabet: the alphabet of its
// unambiguous letters decides how look-alikes, digits and symbols are read.
func fixWord(w []rune) string {
	cyr, lat, letters := 0, 0, 0
	for _, r := range w {
		switch {
		case r == 'ё':
			cyr++
		case unicode.Is(unicode.Cyrillic, r):
			if _, ok := cyrToLat[r]; !ok {
				cyr++
			}
		case r >= 'a' && r <= 'z':
			if _, ok := latToCyr[r]; !ok {
				lat++
			}
		}
		if unicode.IsLetter(r) {
			letters++
		}
	}
	if letters == 0 {
		return strings.Trim(string(w), "@$!") // a number stays a number
	}
	cyrillic := cyr > lat || (cyr == lat && hasCyrillic(w))
	out := make([]rune, 0, len(w))
	for i, r := range w {
		if r == '!' && (i == 0 || i == len(w)-1) {
			continue // punctuation, not a letter in disguise
		}
		if r == 'ё' {
			r = 'е'
		}
		if r == '1' && !cyrillic && inRunOfOnes(w, i) {
			r = 'l' // "a11", "ki11": a run of ones reads as l
		}
		if cyrillic {
			if c, ok := latToCyr[r]; ok {
				r = c
			} else if c, ok := leetCyr[r]; ok {
				r = c
			}
		} else {
			if c, ok := cyrToLat[r]; ok {
				r = c
			} else if c, ok := leetLat[r]; ok {
				r = c
			}
		}
		out = append(out, r)
	}
	return string(out)
}

func hasCyrillic(w []rune) bool {
	for _, r := range w {
		if unicode.Is(unicode.Cyrillic, r) {
			return true
		}
	}
	return false
}

// joinSpelledOut joins runs of three or more one-letter words ("k i l l").
func joinSpelledOut(words []string) []string {
	out := make([]string, 0, len(words))
	for i := 0; i < len(words); {
		j := i
		for j < len(words) && len([]rune(words[j])) == 1 && !isDigitWord(words[j]) {
			j++
		}
		if j-i >= 3 {
			out = append(out, strings.Join(words[i:j], ""))
			i = j
			continue
		}
		out = append(out, words[i])
		i++
	}
	return out
}

func isDigitWord(w string) bool { return w != "" && w[0] >= '0' && w[0] <= '9' }

// Look-alike letters, both ways.
var latToCyr = map[rune]rune{'a': 'а', 'c': 'с', 'e': 'е', 'o': 'о', 'p': 'р', 'x': 'х', 'y': 'у', 'k': 'к', 'm': 'м', 't': 'т', 'h': 'н', 'b': 'в'}

var cyrToLat = map[rune]rune{'а': 'a', 'с': 'c', 'е': 'e', 'о': 'o', 'р': 'p', 'х': 'x', 'у': 'y', 'к': 'k', 'м': 'm', 'т': 't', 'і': 'i', 'в': 'b', 'н': 'h'}

// Leetspeak, read in the word's alphabet.
var leetLat = map[rune]rune{'0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', '$': 's', '!': 'i'}

var leetCyr = map[rune]rune{'0': 'о', '3': 'з', '4': 'ч', '6': 'б', '@': 'а', '$': 'с'}

// inRunOfOnes reports whether the '1' at w[i] is one of a run of ones.
func inRunOfOnes(w []rune, i int) bool {
	for _, j := range []int{i - 1, i + 1} {
		if j >= 0 && j < len(w) && w[j] == '1' {
			return true
		}
	}
	return false
}
