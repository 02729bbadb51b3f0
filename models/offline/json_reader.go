package offline

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// jsonReader reads JSON values strictly, from s at i.
type jsonReader struct {
	s string
	i int
}

func (r *jsonReader) space() {
	for r.i < len(r.s) && (r.s[r.i] == ' ' || r.s[r.i] == '\t' || r.s[r.i] == '\n' || r.s[r.i] == '\r') {
		r.i++
	}
}

// next consumes c, after white space.
func (r *jsonReader) next(c byte) bool {
	r.space()
	if r.i < len(r.s) && r.s[r.i] == c {
		r.i++
		return true
	}
	return false
}

// object reads an object, handing each key to field to read its value;
// a key seen twice fails.
func (r *jsonReader) object(field func(key string) bool) bool {
	if !r.next('{') {
		return false
	}
	if r.next('}') {
		return true
	}
	var keys [8]string
	seen := keys[:0]
	for {
		var key string
		if !r.str(&key) || !r.next(':') {
			return false
		}
		for _, k := range seen {
			if k == key {
				return false
			}
		}
		seen = append(seen, key)
		if !field(key) {
			return false
		}
		if !r.next(',') {
			return r.next('}')
		}
	}
}

// array reads an array, calling elem to read each element.
func (r *jsonReader) array(elem func() bool) bool {
	if !r.next('[') {
		return false
	}
	if r.next(']') {
		return true
	}
	for {
		if !elem() {
			return false
		}
		if !r.next(',') {
			return r.next(']')
		}
	}
}

// str reads a string. Without escapes it is a slice of the input.
func (r *jsonReader) str(out *string) bool {
	if !r.next('"') {
		return false
	}
	j := r.plainRun(r.i)
	if !utf8.ValidString(r.s[r.i:j]) {
		return false
	}
	if j < len(r.s) && r.s[j] == '"' {
		*out, r.i = r.s[r.i:j], j+1
		return true
	}
	return r.escaped(out, j)
}

// plain marks the bytes a string holds as they are: not a quote, not a
// backslash, not a control character.
var plain = func() (t [256]bool) {
	for c := range t {
		t[c] = c >= 0x20 && c != '"' && c != '\\'
	}
	return t
}()

// plainRun is where the run of plain bytes from j ends; eight at a time
// while they last, as most of a text is plain.
func (r *jsonReader) plainRun(j int) int {
	for j+8 <= len(r.s) && plainWord(r.s[j:j+8]) {
		j += 8
	}
	for j < len(r.s) && plain[r.s[j]] {
		j++
	}
	return j
}

// plainWord says whether all 8 bytes of b are plain. A word holds a zero
// byte exactly when (w-ones)&^w&highs is not zero, and a byte below n (at
// most 128) exactly when (w-n*ones)&^w&highs is not.
func plainWord(b string) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	w := uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
	quote, backslash := w^('"'*ones), w^('\\'*ones)
	return (w-0x20*ones)&^w&highs|(quote-ones)&^quote&highs|(backslash-ones)&^backslash&highs == 0
}

// escaped reads the rest of a string that has escapes, from j: its plain
// bytes from the opening quote up to j are read and checked already, and
// are not scanned again.
func (r *jsonReader) escaped(out *string, j int) bool {
	var b strings.Builder
	b.Grow(r.rawLen())
	b.WriteString(r.s[r.i:j])
	for j < len(r.s) {
		switch c := r.s[j]; {
		case c == '"':
			*out, r.i = b.String(), j+1
			return true
		case c == '\\':
			e, n, ok := r.unescape(j)
			if !ok {
				return false
			}
			b.WriteRune(e)
			j += n
		case c < 0x20:
			return false
		default:
			k := r.plainRun(j)
			if !utf8.ValidString(r.s[j:k]) {
				return false
			}
			b.WriteString(r.s[j:k])
			j = k
		}
	}
	return false
}

// skipStr reads a string the engine has no use for, checked as str
// checks one but not unescaped into memory.
func (r *jsonReader) skipStr() bool {
	if !r.next('"') {
		return false
	}
	for j := r.i; j < len(r.s); {
		switch c := r.s[j]; {
		case c == '"':
			r.i = j + 1
			return true
		case c == '\\':
			_, n, ok := r.unescape(j)
			if !ok {
				return false
			}
			j += n
		case c < 0x20:
			return false
		default:
			k := r.plainRun(j)
			if !utf8.ValidString(r.s[j:k]) {
				return false
			}
			j = k
		}
	}
	return false
}

// rawLen is how long the string from i is as written, which bounds its
// length unescaped: up to the first quote not escaped by a backslash.
func (r *jsonReader) rawLen() int {
	for j := r.i; ; j++ {
		k := strings.IndexByte(r.s[j:], '"')
		if k < 0 {
			return len(r.s) - r.i
		}
		j += k
		escapes := 0
		for p := j - 1; p >= r.i && r.s[p] == '\\'; p-- {
			escapes++
		}
		if escapes%2 == 0 {
			return j - r.i
		}
	}
}

// unescape reads the escape at j: the rune it stands for and its length.
func (r *jsonReader) unescape(j int) (rune, int, bool) {
	if j+1 >= len(r.s) {
		return 0, 0, false
	}
	switch c := r.s[j+1]; c {
	case '"', '\\', '/':
		return rune(c), 2, true
	case 'b':
		return '\b', 2, true
	case 'f':
		return '\f', 2, true
	case 'n':
		return '\n', 2, true
	case 'r':
		return '\r', 2, true
	case 't':
		return '\t', 2, true
	case 'u':
		if j+6 > len(r.s) {
			return 0, 0, false
		}
		v, err := strconv.ParseUint(r.s[j+2:j+6], 16, 32)
		if err != nil || v >= 0xD800 && v < 0xE000 { // surrogates: left to encoding/json
			return 0, 0, false
		}
		return rune(v), 6, true
	}
	return 0, 0, false
}

// number reads the text of a number as JSON spells one.
func (r *jsonReader) number() (string, bool) {
	r.space()
	start := r.i
	digits := func() bool {
		from := r.i
		for r.i < len(r.s) && r.s[r.i] >= '0' && r.s[r.i] <= '9' {
			r.i++
		}
		return r.i > from
	}
	if r.i < len(r.s) && r.s[r.i] == '-' {
		r.i++
	}
	if r.i < len(r.s) && r.s[r.i] == '0' {
		r.i++
	} else if !digits() {
		return "", false
	}
	if r.i < len(r.s) && r.s[r.i] == '.' {
		r.i++
		if !digits() {
			return "", false
		}
	}
	if r.i < len(r.s) && (r.s[r.i] == 'e' || r.s[r.i] == 'E') {
		r.i++
		if r.i < len(r.s) && (r.s[r.i] == '+' || r.s[r.i] == '-') {
			r.i++
		}
		if !digits() {
			return "", false
		}
	}
	return r.s[start:r.i], true
}

func (r *jsonReader) float(out *float64) bool {
	n, ok := r.number()
	if !ok {
		return false
	}
	f, err := strconv.ParseFloat(n, 64)
	*out = f
	return err == nil
}

func (r *jsonReader) integer(out *int) bool {
	n, ok := r.number()
	if !ok {
		return false
	}
	v, err := strconv.ParseInt(n, 10, 64)
	*out = int(v)
	return err == nil
}

func (r *jsonReader) boolean(out *bool) bool {
	r.space()
	switch {
	case strings.HasPrefix(r.s[r.i:], "true"):
		*out, r.i = true, r.i+4
	case strings.HasPrefix(r.s[r.i:], "false"):
		*out, r.i = false, r.i+5
	default:
		return false
	}
	return true
}
