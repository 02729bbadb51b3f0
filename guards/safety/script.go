package safety

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// appendWord reads one word in a single alphabet (see readsCyrillic), maps
// look-alike letters, leetspeak digits and symbols into it, and appends it
// to dst. A word without letters is a number and stays one; "!" at either
// end is punctuation.
func appendWord(dst []byte, w []rune) []byte {
	if inOneAlphabet(w) {
		return appendRunes(dst, w) // read as it is written: the common case, and the quick one
	}
	if !hasLetter(w) {
		for len(w) > 0 && strings.ContainsRune("@$!", w[0]) {
			w = w[1:]
		}
		for len(w) > 0 && strings.ContainsRune("@$!", w[len(w)-1]) {
			w = w[:len(w)-1]
		}
		return appendRunes(dst, w)
	}
	for len(w) > 0 && w[0] == '!' {
		w = w[1:]
	}
	for len(w) > 0 && w[len(w)-1] == '!' {
		w = w[:len(w)-1]
	}
	read := toLatin
	if readsCyrillic(w) {
		read = toCyrillic
	}
	for i := range w {
		if r := read(w, i); r != 0 {
			dst = utf8.AppendRune(dst, r)
		}
	}
	return dst
}

func appendRunes(dst []byte, w []rune) []byte {
	for _, r := range w {
		dst = utf8.AppendRune(dst, r)
	}
	return dst
}

// inOneAlphabet reports a word of plain Latin (a-z) or plain Russian (а-я)
// letters only: no look-alike from the other alphabet, no digit or symbol,
// so appendWord would give it back unchanged.
func inOneAlphabet(w []rune) bool {
	if len(w) == 0 {
		return false
	}
	latin := w[0] >= 'a' && w[0] <= 'z'
	for _, r := range w {
		if latin && (r < 'a' || r > 'z') || !latin && (r < 'а' || r > 'я') {
			return false
		}
	}
	return true
}

func hasLetter(w []rune) bool {
	for _, r := range w {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

const (
	latin = iota
	cyrillic
)

// readsCyrillic decides a word's alphabet. Characters that tell first: a
// letter the other alphabet has no look-alike for (б, z), and a leet digit
// only one alphabet uses (6 for б; 1, 5 and ! for i, l and s). When they do
// not decide, the alphabet most of its letters are written in does, so
// "bоmb" with one Cyrillic о is Latin and "сocед" is Russian.
//
// Reading a word into its alphabet only adds to that alphabet's side of both
// counts, so a word once read is read the same way again.
func readsCyrillic(w []rune) bool {
	var telling, written [2]int
	for _, r := range w {
		if s, ok := tellingScript(r); ok {
			telling[s]++
		}
		switch {
		case unicode.Is(unicode.Latin, r):
			written[latin]++
		case unicode.Is(unicode.Cyrillic, r):
			written[cyrillic]++
		}
	}
	if telling[latin] != telling[cyrillic] {
		return telling[cyrillic] > telling[latin]
	}
	if written[latin] != written[cyrillic] {
		return written[cyrillic] > written[latin]
	}
	return written[cyrillic] > 0
}

func tellingScript(r rune) (int, bool) {
	switch {
	case r == '6':
		return cyrillic, true
	case r == '1' || r == '5' || r == '!':
		return latin, true
	case unicode.Is(unicode.Cyrillic, r):
		_, lookalike := cyrToLat[r]
		return cyrillic, !lookalike
	case unicode.Is(unicode.Latin, r):
		_, lookalike := latToCyr[r]
		return latin, !lookalike
	}
	return 0, false
}

func toLatin(w []rune, i int) rune {
	r := w[i]
	if c, ok := cyrToLat[r]; ok {
		return c
	}
	if r == '1' && inRunOfOnes(w, i) {
		return 'l' // "a11", "ki11": a run of ones reads as l
	}
	if c, ok := leetLat[r]; ok {
		return c
	}
	return r
}

// toCyrillic returns 0 for a character the word drops.
func toCyrillic(w []rune, i int) rune {
	r := w[i]
	switch r {
	case '!':
		return 0
	case '4':
		// 4 is ч before a vowel ("4ел0век") and а elsewhere ("б0мб4", "вз0рв4ть").
		if i+1 < len(w) && strings.ContainsRune("аеиоуыэюя", plainCyrillic(w[i+1])) {
			return 'ч'
		}
		return 'а'
	}
	return plainCyrillic(r)
}

func plainCyrillic(r rune) rune {
	if c, ok := latToCyr[r]; ok {
		return c
	}
	if c, ok := leetCyr[r]; ok {
		return c
	}
	return r
}

// inRunOfOnes reports whether the '1' at w[i] is one of a run of ones.
func inRunOfOnes(w []rune, i int) bool {
	for _, j := range []int{i - 1, i + 1} {
		if j >= 0 && j < len(w) && w[j] == '1' {
			return true
		}
	}
	return false
}

// Look-alike letters, both ways.
var latToCyr = map[rune]rune{'a': 'а', 'c': 'с', 'e': 'е', 'o': 'о', 'p': 'р', 'x': 'х', 'y': 'у', 'k': 'к', 'm': 'м', 't': 'т', 'h': 'н', 'b': 'в'}

var cyrToLat = map[rune]rune{'а': 'a', 'с': 'c', 'е': 'e', 'о': 'o', 'р': 'p', 'х': 'x', 'у': 'y', 'к': 'k', 'м': 'm', 'т': 't', 'і': 'i', 'в': 'b', 'н': 'h'}

// Leetspeak, read in the word's alphabet; 4 in a Russian word depends on
// the next letter (see toCyrillic).
var leetLat = map[rune]rune{'0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '@': 'a', '$': 's', '!': 'i'}

var leetCyr = map[rune]rune{'0': 'о', '3': 'з', '6': 'б', '8': 'в', '@': 'а', '$': 'с'}
