package safety

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// normalize is the first reading of a message (see readings), the one the
// classifier's reasons quote.
func normalize(text string) string { return readings(text)[0] }

// readings turns a message into lower-case words separated by single spaces,
// undoing the tricks used to slip past a word list: mixed case, ё, control
// and invisible characters, look-alike letters from the other alphabet,
// leetspeak digits and symbols, and words spelled out letter by letter
// ("k i l l", "b-o-m-b", "h o w  t o"). Each reading starts and ends with a
// space, so every word starts after one.
//
// Letters spelled out with spaces can often be read two ways: "a b o m b" is
// "abomb" or "a bomb", "я и в" is three words or "яив". The first reading
// takes the likelier way for every such run; a second reading, returned only
// when it differs, takes the other way, and the classifier checks both.
func readings(text string) []string { return readPieces(split(text)) }

// readPieces is readings over a message already split (see split).
func readPieces(pieces []piece) []string {
	runs := spelledRuns(pieces)
	spaced := spacedOut(pieces, runs)
	first := words(pieces, runs, spaced, false)
	if hasLetterRun(first) {
		// Read once more as plain text, so that the first reading of a first
		// reading is itself: letters that other gaps kept apart ("x, y, z")
		// are now one space apart.
		plain := asPieces(first)
		first = words(plain, spelledRuns(plain), false, false)
	}
	out := []string{render(first)}
	if !twoWays(runs, pieces, spaced) {
		return out
	}
	if second := render(words(pieces, runs, spaced, true)); second != out[0] {
		out = append(out, second)
	}
	return out
}

// hasLetterRun reports three one-letter words in a row.
func hasLetterRun(words []string) bool {
	n := 0
	for _, w := range words {
		if utf8.RuneCountInString(w) == 1 {
			n++
		} else {
			n = 0
		}
		if n == 3 {
			return true
		}
	}
	return false
}

func render(words []string) string {
	var b strings.Builder
	n := 2
	for _, w := range words {
		n += len(w) + 1
	}
	b.Grow(n)
	b.WriteByte(' ')
	for i, w := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
	b.WriteByte(' ')
	return b.String()
}

// piece is a stretch of letters, digits and leet symbols, lower-cased and
// stripped of invisible characters, with the separators that came before it.
type piece struct {
	runes []rune
	gap   gap
}

// gap describes the separators between two pieces.
type gap struct {
	n        int  // how many separator characters
	sep      rune // the separator when there is exactly one, else 0
	glue     bool // joiners only: the pieces are one word ("k.i.l.l", "вз/ломать")
	allSpace bool // white space only
}

func (g *gap) add(r rune) {
	g.n++
	if g.n == 1 {
		g.sep, g.glue, g.allSpace = r, isJoiner(r), unicode.IsSpace(r)
		return
	}
	g.sep = 0
	g.glue = g.glue && isJoiner(r)
	g.allSpace = g.allSpace && unicode.IsSpace(r)
}

// wide reports a gap of two or more spaces: the gap between the words of a
// spaced-out message ("h o w  t o").
func (g gap) wide() bool { return g.n >= 2 && g.allSpace }

const combiningBreve = '\u0306'

// split cuts a message into pieces at separators. Invisible characters are
// dropped without ending a piece, so "b\u200bomb" is one piece.
func split(text string) []piece {
	// Most pieces are the words between spaces: room for that many.
	pieces := make([]piece, 0, strings.Count(text, " ")+1)
	var g gap
	// One buffer holds the letters of every piece; it never grows (a
	// message has no more runes than bytes), so the pieces' slices stay put.
	buf := make([]rune, 0, len(text))
	for _, r := range text {
		r = unicode.ToLower(r) // rune by rune, as strings.ToLower maps them
		switch {
		case r == combiningBreve && g.n == 0 && endsIn(pieces, 'и'):
			p := pieces[len(pieces)-1].runes
			p[len(p)-1] = 'й' // a decomposed й
		case isInvisible(r):
		case isWordRune(r):
			if len(pieces) == 0 || g.n > 0 {
				pieces = append(pieces, piece{gap: g})
				g = gap{}
			}
			p := &pieces[len(pieces)-1]
			start := len(buf) - len(p.runes)
			buf = append(buf, yoAsYe(r))
			p.runes = buf[start:len(buf):len(buf)]
		default:
			g.add(r)
		}
	}
	return pieces
}

func endsIn(pieces []piece, r rune) bool {
	if len(pieces) == 0 {
		return false
	}
	p := pieces[len(pieces)-1].runes
	return len(p) > 0 && p[len(p)-1] == r
}

func yoAsYe(r rune) rune {
	if r == 'ё' {
		return 'е'
	}
	return r
}

func asPieces(words []string) []piece {
	out := make([]piece, len(words))
	for i, w := range words {
		out[i] = piece{runes: []rune(w), gap: gap{n: 1, sep: ' ', allSpace: true}}
	}
	return out
}

// words joins pieces into words (see run.join) and reads each word in one
// alphabet; second picks the second reading of ambiguous runs.
func words(pieces []piece, runs []run, spaced, second bool) []string {
	glue := make([]bool, len(pieces))
	for i := 1; i < len(pieces); i++ {
		glue[i] = pieces[i].gap.glue
	}
	for _, r := range runs {
		r.join(glue, pieces, spaced, second)
	}
	out, _ := joinPieces(pieces, glue, nil)
	return out
}

// joinPieces makes a word of each stretch of pieces that glue holds together
// and reads it (appendWord); marked reports the words holding a piece of
// mark. The words are read into one buffer and cut from one string, not
// allocated one by one.
func joinPieces(pieces []piece, glue, mark []bool) (out []string, marked []bool) {
	letters := 0
	for _, p := range pieces {
		letters += len(p.runes)
	}
	var cur []rune
	buf := make([]byte, 0, letters) // a byte a letter: as many as plain Latin text takes
	var ends []int
	in := false
	add := func() {
		n := len(buf)
		if buf = appendWord(buf, cur); len(buf) > n {
			ends, marked = append(ends, len(buf)), append(marked, in)
		}
	}
	for i, p := range pieces {
		if i > 0 && !glue[i] {
			add()
			cur, in = cur[:0], false
		}
		cur = append(cur, p.runes...)
		in = in || i < len(mark) && mark[i]
	}
	add()
	all, start := string(buf), 0
	out = make([]string, len(ends))
	for i, end := range ends {
		out[i], start = all[start:end], end
	}
	return out, marked
}

// isInvisible reports characters that take no room on screen, so a reader
// sees the letters around them as one word: controls other than white space,
// format characters (zero-width spaces and joiners, soft hyphen, direction
// marks, tag characters, U+180E), combining and variation marks, Hangul
// fillers and the other default-ignorable code points, and private-use
// characters.
func isInvisible(r rune) bool {
	if r < utf8.RuneSelf {
		return r < ' ' && !unicode.IsSpace(r) || r == 0x7f
	}
	if unicode.IsSpace(r) {
		return false // a line break or tab still ends a word
	}
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Mn, unicode.Me, unicode.Co,
		unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point)
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || isLeetSymbol(r)
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// isJoiner reports separators dropped inside a word ("вз/ломать", "k.i.l.l").
func isJoiner(r rune) bool { return strings.ContainsRune("./*_|\\", r) }

func isLeetSymbol(r rune) bool { return r == '@' || r == '$' || r == '!' }
