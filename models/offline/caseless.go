package offline

import (
	"regexp"
	"strings"
)

// caseless is a pattern written in lower case, compiled twice: to match
// any text regardless of case, and to match an ASCII text once lower-cased.
// The two agree on ASCII text (a letter of the pattern matches an ASCII
// letter in any case exactly when it equals the letter lower-cased), and
// matching without case folding is more than twice as fast.
type caseless struct {
	any, lower *regexp.Regexp
}

func newCaseless(lower string) caseless {
	return caseless{any: regexp.MustCompile(`(?i)` + lower), lower: regexp.MustCompile(lower)}
}

// text is a text prepared for caseless patterns: lowered once when ASCII.
type text struct {
	s     string
	ascii bool
}

func lowered(s string) text {
	if isASCII(s) {
		return text{strings.ToLower(s), true}
	}
	return text{s, false}
}

func (c caseless) match(t text) bool {
	if t.ascii {
		return c.lower.MatchString(t.s)
	}
	return c.any.MatchString(t.s)
}
