package tables

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// test is one compiled unary test: it answers whether an input value passes.
type test struct {
	any     bool
	negate  bool
	numbers []numTest // alternatives, any may match
	strings []string  // alternatives for string and bool values
}

type numTest struct {
	op    string // "<", "<=", ">", ">=", "=", or "range"
	value float64
	lo    float64
	hi    float64
	loInc bool
	hiInc bool
}

// parseUnary compiles the text of one rule entry.
func parseUnary(text string) (test, error) {
	s := strings.TrimSpace(text)
	if s == "-" || s == "" {
		return test{any: true}, nil
	}
	if strings.HasPrefix(s, "not(") && strings.HasSuffix(s, ")") {
		inner, err := parseUnary(s[4 : len(s)-1])
		if err != nil {
			return test{}, err
		}
		if inner.any || inner.negate {
			return test{}, fmt.Errorf("not(%s): cannot negate %q", s[4:len(s)-1], s[4:len(s)-1])
		}
		inner.negate = true
		return inner, nil
	}
	var t test
	for _, part := range splitList(s) {
		if err := t.add(part); err != nil {
			return test{}, err
		}
	}
	return t, nil
}

func (t *test) add(p string) error {
	switch {
	case p == "":
		return fmt.Errorf("empty entry in list")
	case strings.HasPrefix(p, `"`):
		v, err := strconv.Unquote(p)
		if err != nil {
			return fmt.Errorf("bad string %s: %w", p, err)
		}
		t.strings = append(t.strings, v)
	case p == "true" || p == "false":
		t.strings = append(t.strings, p)
	case strings.HasPrefix(p, "[") || strings.HasPrefix(p, "(") || strings.HasPrefix(p, "]"):
		n, err := parseRange(p)
		if err != nil {
			return err
		}
		t.numbers = append(t.numbers, n)
	default:
		n, err := parseComparison(p)
		if err != nil {
			return err
		}
		t.numbers = append(t.numbers, n)
	}
	return nil
}

// splitList splits a comma-separated list, keeping commas inside quotes. A
// backslash inside quotes escapes the next character, as in strconv.Quote,
// so that an escaped quote does not end the string.
// splitList cuts a rule entry at the commas outside quotes, each part
// trimmed; the parts are cut from s, not copied.
func splitList(s string) []string {
	if !utf8.ValidString(s) {
		s = string([]rune(s)) // each byte that is no UTF-8 read as U+FFFD, as ranging over s reads it
	}
	var parts []string
	start, quoted, escaped := 0, false, false
	for i, r := range s {
		switch {
		case escaped:
			escaped = false
		case quoted && r == '\\':
			escaped = true
		case r == '"':
			quoted = !quoted
		case r == ',' && !quoted:
			parts = append(parts, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
	}
	return append(parts, strings.TrimSpace(s[start:]))
}

func parseComparison(p string) (numTest, error) {
	for _, op := range []string{"<=", ">=", "<", ">", "="} {
		if strings.HasPrefix(p, op) {
			v, err := parseNumber(strings.TrimSpace(p[len(op):]))
			return numTest{op: op, value: v}, err
		}
	}
	v, err := parseNumber(p)
	return numTest{op: "=", value: v}, err
}

// parseRange reads [a..b], (a..b), [a..b), (a..b] and ]a..b[ forms.
func parseRange(p string) (numTest, error) {
	if len(p) < 5 {
		return numTest{}, fmt.Errorf("bad range %q", p)
	}
	open, closing := p[0], p[len(p)-1]
	bounds := strings.Split(p[1:len(p)-1], "..")
	if len(bounds) != 2 || !strings.ContainsRune("])[", rune(closing)) {
		return numTest{}, fmt.Errorf("bad range %q: want [a..b], (a..b), [a..b) or (a..b]", p)
	}
	lo, err := parseNumber(strings.TrimSpace(bounds[0]))
	if err != nil {
		return numTest{}, err
	}
	hi, err := parseNumber(strings.TrimSpace(bounds[1]))
	if err != nil {
		return numTest{}, err
	}
	if lo > hi {
		return numTest{}, fmt.Errorf("bad range %q: low end above high end", p)
	}
	return numTest{op: "range", lo: lo, hi: hi, loInc: open == '[', hiInc: closing == ']'}, nil
}

// parseNumber reads a finite number: a bound of NaN would make a test that
// nothing passes, and no input is infinite.
func parseNumber(s string) (float64, error) {
	v, ok := readNumber(s)
	switch {
	case !ok:
		return 0, fmt.Errorf("%q is not a number", s)
	case math.IsNaN(v) || math.IsInf(v, 0):
		return 0, fmt.Errorf("%q is not a finite number", s)
	}
	return v, nil
}

// readNumber parses s as strconv does; a well-formed number too large for
// a float64 reads as an infinity, for the caller to refuse as not finite.
func readNumber(s string) (float64, bool) {
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil || errors.Is(err, strconv.ErrRange)
}

func (n numTest) match(v float64) bool {
	switch n.op {
	case "<":
		return v < n.value
	case "<=":
		return v <= n.value
	case ">":
		return v > n.value
	case ">=":
		return v >= n.value
	case "=":
		return v == n.value
	}
	return (v > n.lo || (n.loInc && v == n.lo)) && (v < n.hi || (n.hiInc && v == n.hi))
}

// matches answers for a value already converted to the column's type:
// float64 for numbers, string for strings and bools ("true"/"false").
func (t test) matches(v any) bool {
	if t.any || v == nil {
		return t.any
	}
	hit := false
	switch x := v.(type) {
	case float64:
		for _, n := range t.numbers {
			hit = hit || n.match(x)
		}
	case string:
		for _, s := range t.strings {
			hit = hit || s == x
		}
	}
	return hit != t.negate
}

// String renders the test in one canonical form that parses back to the
// same test: strings, then numbers, comma-separated, ranges with brackets
// and parentheses. Entries that differ only in spacing, in how a number is
// spelled or in the style of a range's brackets render the same.
func (t test) String() string {
	if t.any {
		return "-"
	}
	parts := make([]string, 0, len(t.strings)+len(t.numbers))
	for _, s := range t.strings {
		if s == "true" || s == "false" {
			parts = append(parts, s)
		} else {
			parts = append(parts, strconv.Quote(s))
		}
	}
	for _, n := range t.numbers {
		parts = append(parts, n.String())
	}
	list := strings.Join(parts, ",")
	if t.negate {
		return "not(" + list + ")"
	}
	return list
}

func (n numTest) String() string {
	num := func(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
	switch n.op {
	case "=":
		return num(n.value)
	case "range":
		open, closing := "(", ")"
		if n.loInc {
			open = "["
		}
		if n.hiInc {
			closing = "]"
		}
		return open + num(n.lo) + ".." + num(n.hi) + closing
	}
	return n.op + " " + num(n.value)
}
