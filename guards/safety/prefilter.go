package safety

import (
	"regexp/syntax"
	"slices"
	"strings"
	"unicode/utf8"
)

// A trigger is a long alternation, and Go's regexp runs it through its NFA
// at every word of every reading: most of a classification's time, for
// messages in which no trigger can match. Every match of a trigger begins
// with one of a few literal strings, known once the pattern is compiled; a
// reading that contains none of them cannot match, and is not searched.

// maxPrefixes bounds the prefixes kept for one pattern; a pattern that
// would need more is always searched.
const maxPrefixes = 256

// maxClassRunes is the largest character class a prefix spells out.
const maxClassRunes = 8

// triggerIndex finds, in one pass over a text, the triggers that may match
// it: those with a prefix in the text, and those whose prefixes are not
// known.
type triggerIndex struct {
	n int
	// anywhere: matches may begin at any character, not only at the space
	// before a word (the flat reading, where a run has no spaces).
	anywhere bool
	always   []int                  // triggers without known prefixes
	keyLen   int                    // bytes of a prefix that key byKey
	byKey    map[string][]candidate // a prefix's first keyLen bytes → the prefixes
}

type candidate struct {
	trigger int
	prefix  string
}

// maxKeyLen bounds the key: longer keys are rarer in text, but every
// prefix must be at least as long.
const maxKeyLen = 4

// newTriggerIndex indexes the prefixes of the triggers: known[i] holds
// trigger i's (prefixesOf), nil when they are not known.
func newTriggerIndex(known [][]string, anywhere bool) *triggerIndex {
	ix := &triggerIndex{n: len(known), anywhere: anywhere, keyLen: maxKeyLen, byKey: map[string][]candidate{}}
	for i := range known {
		if known[i] == nil {
			ix.always = append(ix.always, i)
		}
		for _, p := range known[i] {
			ix.keyLen = min(ix.keyLen, len(p))
		}
	}
	for i, ps := range known {
		if !anywhere && slices.ContainsFunc(ps, func(p string) bool { return p[0] != ' ' }) {
			ix.always = append(ix.always, i) // find looks only at spaces
			continue
		}
		for _, p := range ps {
			ix.byKey[p[:ix.keyLen]] = append(ix.byKey[p[:ix.keyLen]], candidate{trigger: i, prefix: p})
		}
	}
	return ix
}

// candidates are where a text may match each trigger.
type candidates struct {
	everywhere []bool    // the trigger has no known prefixes: search the whole text
	at         [][][]int // at[trigger][text]: offsets where one of its prefixes begins, ascending
}

// may reports whether trigger i may match one of the texts.
func (c candidates) may(i int) bool { return c.everywhere[i] || c.at[i] != nil }

// find lists, in one pass over each text, the offsets where a trigger's
// prefix begins. Unless the index is anywhere, every prefix begins with the
// space before a word (a trigger is " (?:…)"), so only those bytes are
// looked up.
func (ix *triggerIndex) find(texts []string) candidates {
	c := candidates{everywhere: make([]bool, ix.n), at: make([][][]int, ix.n)}
	for _, i := range ix.always {
		c.everywhere[i] = true
	}
	for k, t := range texts {
		for at := 0; at+ix.keyLen <= len(t); at++ {
			if !ix.anywhere && t[at] != ' ' || !utf8.RuneStart(t[at]) {
				continue
			}
			for _, cand := range ix.byKey[t[at:at+ix.keyLen]] {
				if !strings.HasPrefix(t[at:], cand.prefix) {
					continue
				}
				if c.at[cand.trigger] == nil {
					c.at[cand.trigger] = make([][]int, len(texts))
				}
				offs := c.at[cand.trigger][k]
				if n := len(offs); n == 0 || offs[n-1] != at {
					c.at[cand.trigger][k] = append(offs, at)
				}
			}
		}
	}
	return c
}

// prefixesOf finds, for the pattern expr, the literal strings every match
// begins with; nil when it cannot tell.
func prefixesOf(expr string) []string {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	return prefixesOfParsed(re)
}

// prefixesOfParsed is prefixesOf over the parsed pattern.
func prefixesOfParsed(re *syntax.Regexp) []string {
	ps, ok := prefixes(re)
	if ok {
		ps, ok = fewer(ps)
	}
	if !ok || len(ps) > maxPrefixes {
		return nil
	}
	return ps
}

// prefixes returns non-empty strings one of which every match of re
// begins with, or false when some match may begin otherwise. The strings
// are only ever extended by exact ones, so shortening them keeps them true.
func prefixes(re *syntax.Regexp) ([]string, bool) {
	if ps, ok := exact(re); ok {
		return nonEmpty(ps)
	}
	return inexactPrefixes(re)
}

// inexactPrefixes is prefixes of a pattern that exact cannot spell out.
func inexactPrefixes(re *syntax.Regexp) ([]string, bool) {
	switch re.Op {
	case syntax.OpCapture, syntax.OpPlus:
		return prefixes(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return prefixes(re.Sub[0])
		}
	case syntax.OpAlternate:
		var all []string
		for _, sub := range re.Sub {
			ps, ok := prefixes(sub)
			if !ok {
				return nil, false
			}
			all = append(all, ps...)
		}
		return fewer(all)
	case syntax.OpConcat:
		// The strings of the leading subexpressions that match few, then
		// the prefixes of the next one, until they are long enough.
		head := []string{""}
		for _, sub := range re.Sub {
			ps, isExact := exact(sub)
			if !isExact {
				var ok bool
				if ps, ok = inexactPrefixes(sub); !ok {
					break
				}
			}
			longer, ok := product(head, ps)
			if !ok {
				break
			}
			head = longer
			if !isExact || shortest(head) >= longEnough {
				break
			}
		}
		return nonEmpty(head)
	}
	return nil, false
}

// longEnough is the length (bytes) at which a prefix is rare enough in
// ordinary text to stop extending it.
const longEnough = 6

func shortest(ps []string) int {
	n := -1
	for _, p := range ps {
		if n < 0 || len(p) < n {
			n = len(p)
		}
	}
	return n
}

// fewer drops every string another one begins, and shortens the strings
// until at most maxPrefixes remain.
func fewer(ps []string) ([]string, bool) {
	for cut := longEnough * 2; ; cut-- {
		var out []string
		for _, p := range ps {
			if len(p) > cut {
				p = p[:cut]
				for !utf8.ValidString(p) {
					p = p[:len(p)-1]
				}
			}
			out = append(out, p)
		}
		slices.Sort(out)
		out = slices.Compact(out)
		kept := out[:0]
		for _, p := range out {
			if n := len(kept); n == 0 || !strings.HasPrefix(p, kept[n-1]) {
				kept = append(kept, p)
			}
		}
		if len(kept) <= maxPrefixes || cut == 1 {
			return nonEmpty(kept)
		}
	}
}

// exact returns every string re matches, when they are few.
func exact(re *syntax.Regexp) ([]string, bool) {
	if re.Flags&syntax.FoldCase != 0 {
		return nil, false
	}
	switch re.Op {
	case syntax.OpEmptyMatch:
		return []string{""}, true
	case syntax.OpLiteral:
		return []string{string(re.Rune)}, true
	case syntax.OpCharClass:
		var out []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if len(out) == maxClassRunes {
					return nil, false
				}
				out = append(out, string(r))
			}
		}
		return out, len(out) > 0
	case syntax.OpCapture:
		return exact(re.Sub[0])
	case syntax.OpQuest:
		ps, ok := exact(re.Sub[0])
		if !ok || len(ps)+1 > maxPrefixes {
			return nil, false
		}
		return append([]string{""}, ps...), true
	case syntax.OpAlternate:
		var all []string
		for _, sub := range re.Sub {
			ps, ok := exact(sub)
			if !ok || len(all)+len(ps) > maxPrefixes {
				return nil, false
			}
			all = append(all, ps...)
		}
		return all, true
	case syntax.OpConcat:
		all := []string{""}
		for _, sub := range re.Sub {
			ps, ok := exact(sub)
			if !ok {
				return nil, false
			}
			if all, ok = product(all, ps); !ok {
				return nil, false
			}
		}
		return all, true
	}
	return nil, false
}

// product is every a followed by every b, or false when too many.
func product(a, b []string) ([]string, bool) {
	if len(a)*len(b) > maxPrefixes {
		return nil, false
	}
	out := make([]string, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, x+y)
		}
	}
	return out, true
}

// nonEmpty passes ps on unless one of them is empty (a match that may
// begin with anything tells nothing) or holds U+FFFD, which the pattern
// matches on any invalid byte as well.
func nonEmpty(ps []string) ([]string, bool) {
	for _, p := range ps {
		if p == "" || strings.ContainsRune(p, utf8.RuneError) {
			return nil, false
		}
	}
	return ps, len(ps) > 0
}

// offsets are trigger i's offsets in each text, nil when it is searched everywhere.
func (c candidates) offsets(i int) [][]int {
	if c.everywhere[i] {
		return nil
	}
	return c.at[i]
}
