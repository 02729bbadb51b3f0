package safety

import (
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// A message spaced out with one space between all its letters ("h o w t o m
// a k e a b o m b") keeps no word boundary: its letters join into one long
// word, and patterns that match from word starts find nothing inside it. The
// flat reading keeps each such run of letters as one word and looks for the
// lexicon's terms anywhere inside it, in flat form (flatpattern.go). Text
// around the runs is still read as words, and a trigger must reach into a
// run, so ordinary text gets the verdict it always had.

const (
	// minRunLetters: shorter runs are read by the readings alone.
	minRunLetters = 3
	// minFlatTrigger and minFlatContext are the letters a trigger, or a near
	// or unless term inside a run, must span: shorter ones ("rob", "sex",
	// "her") hide inside too many words once boundaries are gone
	// ("processexited", "forthereport"). A term right against another needs
	// only minFlatAdjacent: a verb's object ("stabhim", "убитьего").
	minFlatTrigger  = 4
	minFlatContext  = 4
	minFlatAdjacent = 2
	// flatWordRunes is how many letters of a run count as one word of an
	// entry's window.
	flatWordRunes = 6
	// flatReach is how far (bytes) a term may reach from outside into a run.
	flatReach = 256
)

// flatText is the flat reading of a message: words one space apart as in
// its readings, but each spelled-out run of letters joined whole. runs holds
// the byte spans of those words, regions the stretches where a term that
// reaches into a run may start (runs widened by flatReach, then merged).
type flatText struct {
	s       string
	runs    [][2]int
	regions [][2]int
}

// flatReading returns false when the message has no run to look inside,
// or when it is spaced out with wider gaps between words, since then the
// readings already know where its words end.
func flatReading(pieces []piece) (flatText, bool) {
	runs := spelledRuns(pieces)
	if !slices.ContainsFunc(runs, func(r run) bool { return r.len() >= minRunLetters }) || spacedOut(pieces, runs) {
		return flatText{}, false // no run to look inside
	}
	glue := make([]bool, len(pieces))
	mark := make([]bool, len(pieces))
	for i := 1; i < len(pieces); i++ {
		glue[i] = pieces[i].gap.glue
	}
	for _, r := range runs {
		for i := r.start; i < r.end && r.len() >= minRunLetters; i++ {
			mark[i], glue[i] = true, glue[i] || i > r.start
		}
	}
	words, marked := joinPieces(pieces, glue, mark)
	var f flatText
	var b strings.Builder
	b.WriteByte(' ')
	for i, w := range words {
		if marked[i] {
			f.runs = append(f.runs, [2]int{b.Len(), b.Len() + len(w)})
		}
		b.WriteString(w)
		b.WriteByte(' ')
	}
	f.s = b.String()
	for _, r := range f.runs {
		if n := len(f.regions); n > 0 && f.regions[n-1][1] >= r[0]-flatReach {
			f.regions[n-1][1] = r[1]
		} else {
			f.regions = append(f.regions, [2]int{max(1, f.runeStart(r[0]-flatReach)), r[1]})
		}
	}
	return f, len(f.runs) > 0
}

// runeStart moves byte i back to the start of its character.
func (f flatText) runeStart(i int) int {
	for i > 0 && i < len(f.s) && !utf8.RuneStart(f.s[i]) {
		i--
	}
	return i
}

// upTo is f.s from i to at most flatReach bytes past end, so that a term
// read from i cannot run on through a long run.
func (f flatText) upTo(i, end int) string { return f.s[i:f.runeStart(min(len(f.s), end+flatReach))] }

// inRun reports whether byte i lies inside a run.
func (f flatText) inRun(i int) bool {
	k := sort.Search(len(f.runs), func(k int) bool { return f.runs[k][1] > i })
	return k < len(f.runs) && f.runs[k][0] <= i
}

// touchesRun reports whether [a, b) overlaps a run.
func (f flatText) touchesRun(a, b int) bool {
	k := sort.Search(len(f.runs), func(k int) bool { return f.runs[k][1] > a })
	return k < len(f.runs) && f.runs[k][0] < b
}

// each calls fn with the longest match of re at every position of the
// regions where one starts, anywhere inside a run and at word starts
// elsewhere, until fn returns true. One scan per region: a match found is
// searched again from its next letter.
func (f flatText) each(re *regexp.Regexp, fn func(a, b int) bool) bool {
	for _, reg := range f.regions {
		for from := reg[0]; from < reg[1]; {
			loc := re.FindStringIndex(f.upTo(from, reg[1]))
			if loc == nil || from+loc[0] >= reg[1] {
				break
			}
			a, b := from+loc[0], from+loc[1]
			for a < b && f.s[a] == ' ' {
				a++
			}
			if a < b && (f.s[a-1] == ' ' || f.inRun(a)) && fn(a, b) {
				return true
			}
			_, size := utf8.DecodeRuneInString(f.s[from+loc[0]:])
			from += loc[0] + size
		}
	}
	return false
}

func letters(s string) int { return utf8.RuneCountInString(s) - strings.Count(s, " ") }

// fireFlat is fire over the flat reading: the first trigger that reaches
// into a run and has its near groups and no benign context within the
// entry's window, counted in words outside runs and in letters inside them.
// terms is flatTerms of the lexicon.
func (e rule) fireFlat(f flatText, fr flatRule, terms *regexp.Regexp) (string, bool) {
	termAt := func(i int) bool {
		if terms == nil {
			return false
		}
		loc := terms.FindStringIndex(f.upTo(i, i))
		return loc != nil && letters(f.s[i:i+loc[1]]) >= minFlatAdjacent
	}
	wordEnd := func(b int) bool {
		if f.s[b] == ' ' || termAt(b) {
			return true
		}
		r, size := utf8.DecodeRuneInString(f.s[b:])
		return strings.ContainsRune(oneLetterWords, r) && termAt(b+size)
	}
	c := &flatContext{f: f, e: e, fr: fr}
	if hit, ok := c.fire(fr.stems, nil); ok {
		return hit, true
	}
	return c.fire(fr.words, wordEnd)
}

// flatContext holds the near and unless terms of one entry found inside
// the runs, looked for once, when the entry has a trigger there.
type flatContext struct {
	f      flatText
	e      rule
	fr     flatRule
	found  bool
	near   [][][2]int
	unless [][2]int
}

// fire finds the trigger; wordEnd, when not nil, is the last check: that a
// whole word may end where the trigger does (the trigger less its space).
func (c *flatContext) fire(re *regexp.Regexp, wordEnd func(b int) bool) (string, bool) {
	if re == nil {
		return "", false
	}
	f, e := c.f, c.e
	var hit string
	f.each(re, func(a, b int) bool {
		if wordEnd != nil {
			b = a + len(strings.TrimRight(f.s[a:b], " "))
		}
		if !f.touchesRun(a, b) || letters(f.s[a:b]) < minFlatTrigger {
			return false
		}
		c.load()
		lo, hi := f.window(a, b, e.Window)
		// A context term lies inside the trigger or clear of it, never
		// across its edge ("bomb|athome" holds no "bath"), but a benign
		// term may hold the whole trigger ("workstealing"); near, as in
		// fire, does not start where the trigger does.
		long := func(x, y int) bool {
			n := letters(f.s[x:y])
			return !f.inRun(x) || n >= minFlatContext || n >= minFlatAdjacent && (y == a || x == b)
		}
		clear := func(x, y int) bool { return long(x, y) && (y <= a || x >= b || x >= a && y <= b) }
		benign := func(x, y int) bool { return clear(x, y) || x <= a && y >= b }
		context := e.context()
		if context.unless != nil && f.context(context.unless, c.unless, lo, hi, benign) {
			return false
		}
		for g, near := range context.near {
			if !f.context(near, c.near[g], lo, hi, func(x, y int) bool { return x != a && clear(x, y) }) {
				return false
			}
		}
		if wordEnd != nil && !wordEnd(b) {
			return false
		}
		hit = strings.TrimSpace(f.s[a:b])
		return true
	})
	return hit, hit != ""
}

func (c *flatContext) load() {
	if c.found {
		return
	}
	c.found = true
	c.unless = c.f.inRuns(c.fr.unless)
	for _, re := range c.fr.near {
		c.near = append(c.near, c.f.inRuns(re))
	}
}

// inRuns lists the matches of re that start inside a run, in order.
func (f flatText) inRuns(re *regexp.Regexp) [][2]int {
	var out [][2]int
	if re != nil {
		f.each(re, func(a, b int) bool {
			if f.inRun(a) {
				out = append(out, [2]int{a, b})
			}
			return false
		})
	}
	return out
}

// window widens [a, b) by w words of flatWordRunes letters each side.
func (f flatText) window(a, b, w int) (int, int) {
	for n := w * flatWordRunes; n > 0 && a > 0; n-- {
		_, size := utf8.DecodeLastRuneInString(f.s[:a])
		a -= size
	}
	for n := w * flatWordRunes; n > 0 && b < len(f.s); n-- {
		_, size := utf8.DecodeRuneInString(f.s[b:])
		b += size
	}
	return a, b
}

// context reports a near or unless term starting in [lo, hi) whose span ok
// accepts: read as a word (the entry's own pattern) at the start of a word
// outside runs, and among inRun, the term's matches inside runs.
func (f flatText) context(word *regexp.Regexp, inRun [][2]int, lo, hi int, ok func(a, b int) bool) bool {
	for i := lo; i+1 < hi; i++ {
		if f.s[i] != ' ' || f.inRun(i+1) {
			continue
		}
		if loc := word.FindStringIndex(f.upTo(i+1, hi)); loc != nil && ok(i+1, i+1+loc[1]) {
			return true
		}
	}
	for k := sort.Search(len(inRun), func(k int) bool { return inRun[k][0] >= lo }); k < len(inRun) && inRun[k][0] < hi; k++ {
		if ok(inRun[k][0], inRun[k][1]) {
			return true
		}
	}
	return false
}
