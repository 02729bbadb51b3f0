package safety

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// flatGap bounds what an unbounded repeat ("\S*", "(\S+ ){0,2}") spans in
// the flat reading, so a pattern cannot stretch across a whole run.
const flatGap = 16

// minFlatPhrase: see flatSource.
const minFlatPhrase = 6

// flatRule is an entry compiled for the flat reading (flat.go). Its
// triggers are split in two: a pattern that ends in a space asks for a
// whole word ("meth ", not "something"), and inside a run a word is seen to
// end only at the run's end or where another term of the lexicon begins,
// perhaps after a one-letter word ("bomb|athome", "войне|в|украине"); the
// others are stems and may end anywhere.
type flatRule struct {
	stems, words *regexp.Regexp // nil when none
	near         []*regexp.Regexp
	unless       *regexp.Regexp
}

func compileFlat(e Entry) flatRule {
	var fr flatRule
	for _, group := range e.Near {
		re := flatPatterns(group)
		if re == nil {
			return flatRule{} // a group nothing can satisfy
		}
		fr.near = append(fr.near, re)
	}
	fr.unless = flatPatterns(e.Unless)
	var stems, words []string
	for _, p := range e.Match {
		if strings.HasSuffix(p, " ") {
			words = append(words, p)
		} else {
			stems = append(stems, p)
		}
	}
	fr.stems, fr.words = flatPatterns(stems), flatPatterns(words)
	return fr
}

// prefixes are the literal strings every match of the entry's flat
// triggers begins with (prefixesOf): empty when it has no trigger there,
// nil when they are not known.
func (fr flatRule) prefixes() []string {
	out := []string{}
	for _, re := range []*regexp.Regexp{fr.stems, fr.words} {
		if re == nil {
			continue
		}
		ps := prefixesOf(re.String())
		if ps == nil {
			return nil
		}
		out = append(out, ps...)
	}
	return out
}

// flatTerms is every pattern of a lexicon in flat form, anchored: what may
// follow a whole word inside a run.
func flatTerms(lex Lexicon) *regexp.Regexp {
	var all []string
	for _, e := range lex.Entries {
		all = append(append(all, e.Match...), e.Unless...)
		for _, group := range e.Near {
			all = append(all, group...)
		}
	}
	if re := flatPatterns(all); re != nil {
		if re, err := regexp.Compile(`^(?:` + re.String() + `)`); err == nil {
			re.Longest()
			return re
		}
	}
	return nil
}

// flatPatterns compiles patterns for the flat reading, nil when none has a
// flat form. It matches leftmost-longest, so that "sexy" is not read as a
// too short "sex".
func flatPatterns(patterns []string) *regexp.Regexp {
	var flat []string
	for _, p := range patterns {
		if s := flatSource(p); s != "" {
			flat = append(flat, s)
		}
	}
	re, err := regexp.Compile(alternation(flat))
	if err != nil {
		// Some pattern has no flat form (a bounded repeat nested too
		// deep); leave it out, or all of them when they are too large
		// together.
		flat = slices.DeleteFunc(flat, func(s string) bool { _, err := regexp.Compile(s); return err != nil })
		if re, err = regexp.Compile(alternation(flat)); err != nil {
			return nil
		}
	}
	if len(flat) == 0 {
		return nil
	}
	re.Longest()
	return re
}

// flatSource rewrites a pattern for the flat reading, in one pass over its
// text (a parsed pattern printed back costs a millisecond for each \S):
//   - its spaces become optional, since a run has none ("at home" finds
//     "athome"), except in a short phrase of short words: strung together,
//     "rob a" or "how to" make letters that turn up inside other words
//     ("probably", "showtoday"), so such a phrase is found only where the
//     text has its space;
//   - an unbounded repeat ("\S*", "(\S+ ){0,2}") is bounded by flatGap, so
//     a term cannot stretch across a whole run.
//
// A character class and an escape stay as written, so a space written as \s
// or [ -] is still required; so does a whole pattern with quoted text
// (\Q...\E).
func flatSource(p string) string {
	if strings.Contains(p, `\Q`) {
		return p
	}
	rs := []rune(p)
	var b strings.Builder
	for i := 0; i < len(rs); i++ {
		switch r := rs[i]; {
		case r == '\\' && i+1 < len(rs):
			b.WriteString(string(rs[i : i+2]))
			i++
		case r == '[':
			end := classEnd(rs, i)
			b.WriteString(string(rs[i:end]))
			i = end - 1
		case r == ' ' && !shortWords(rs, i):
			b.WriteString("(?: )?")
		case r == '*':
			fmt.Fprintf(&b, "{0,%d}", flatGap)
		case r == '+':
			fmt.Fprintf(&b, "{1,%d}", flatGap)
		case r == '{' && openRepeat.MatchString(string(rs[i:])):
			m := openRepeat.FindStringSubmatch(string(rs[i:]))
			n, _ := strconv.Atoi(m[1])
			fmt.Fprintf(&b, "{%d,%d}", n, n+flatGap)
			i += len(m[0]) - 1
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

var openRepeat = regexp.MustCompile(`^\{([0-9]{1,4}),\}`)

// classEnd returns the index after the character class that opens at
// rs[i]: a ] right after [ or [^ is a member, and so is [:alpha:].
func classEnd(rs []rune, i int) int {
	j := i + 1
	if j < len(rs) && rs[j] == '^' {
		j++
	}
	if j < len(rs) && rs[j] == ']' {
		j++
	}
	for ; j < len(rs); j++ {
		switch {
		case rs[j] == '\\':
			j++
		case rs[j] == '[' && j+1 < len(rs) && rs[j+1] == ':':
			if k := strings.Index(string(rs[j:]), ":]"); k > 0 {
				j += len([]rune(string(rs[j:])[:k])) + 1
			}
		case rs[j] == ']':
			return j + 1
		}
	}
	return len(rs)
}

// shortWords reports a space at rs[i] between two words of fewer than
// minFlatTrigger letters, in a phrase (letters and spaces) of fewer than
// minFlatPhrase letters.
func shortWords(rs []rune, i int) bool {
	word := func(j, step int) (n int) {
		for ; j >= 0 && j < len(rs) && unicode.IsLetter(rs[j]); j += step {
			if j > 0 && rs[j-1] == '\\' {
				return 0 // an escape such as \S, not a word
			}
			n++
		}
		return n
	}
	before, after := word(i-1, -1), word(i+1, 1)
	if before == 0 || after == 0 || before >= minFlatTrigger || after >= minFlatTrigger {
		return false
	}
	lo, hi := i, i
	for lo > 0 && (rs[lo-1] == ' ' || unicode.IsLetter(rs[lo-1])) {
		lo--
	}
	for hi < len(rs) && (rs[hi] == ' ' || unicode.IsLetter(rs[hi])) {
		hi++
	}
	return letters(string(rs[lo:hi])) < minFlatPhrase
}
