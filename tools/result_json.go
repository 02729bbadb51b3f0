package tools

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/kb"
)

// jsonWriter writes what json.Marshal writes for a search result, byte for
// byte, without its reflection, into the string it builds: every search's
// result is written so, once, where Marshal and a conversion to string
// would write it twice.
type jsonWriter struct {
	strings.Builder
	num [32]byte // room to format a number
}

// result writes res; false when a score is not finite, which json.Marshal
// refuses.
func (w *jsonWriter) result(res kb.Result) bool {
	c := res.Confidence
	ok := finite(c.TopScore) && finite(c.MeanTopK) && finite(c.ScoreGap)
	w.WriteString(`{"query":`)
	w.str(res.Query)
	w.WriteString(`,"articles":`)
	if res.Articles == nil {
		w.WriteString("null")
	} else {
		w.WriteByte('[')
		for i, a := range res.Articles {
			if i > 0 {
				w.WriteByte(',')
			}
			w.article(a)
			ok = ok && finite(a.Score)
			for _, ch := range a.Chunks {
				ok = ok && finite(ch.Score)
			}
		}
		w.WriteByte(']')
	}
	w.WriteString(`,"confidence":{"top_score":`)
	w.float(c.TopScore)
	w.WriteString(`,"mean_top_k":`)
	w.float(c.MeanTopK)
	w.WriteString(`,"score_gap":`)
	w.float(c.ScoreGap)
	w.WriteString(`,"n_above_threshold":`)
	w.Write(strconv.AppendInt(w.num[:0], int64(c.NAboveThreshold), 10))
	w.WriteString(`,"likely_relevant":`)
	w.WriteString(strconv.FormatBool(c.LikelyRelevant))
	w.WriteByte('}')
	if res.Fallback != "" { // omitempty
		w.WriteString(`,"fallback":`)
		w.str(res.Fallback)
	}
	w.WriteByte('}')
	return ok
}

func (w *jsonWriter) article(a contracts.Article) {
	w.WriteString(`{"kb_id":`)
	w.str(a.KBID)
	w.WriteString(`,"title":`)
	w.str(a.Title)
	w.WriteString(`,"url":`)
	w.str(a.URL)
	if len(a.Tags) > 0 { // omitempty
		w.WriteString(`,"tags":[`)
		for i, t := range a.Tags {
			if i > 0 {
				w.WriteByte(',')
			}
			w.str(t)
		}
		w.WriteByte(']')
	}
	w.WriteString(`,"score":`)
	w.float(a.Score)
	w.WriteString(`,"chunks":`)
	if a.Chunks == nil {
		w.WriteString("null}")
		return
	}
	w.WriteByte('[')
	for i, c := range a.Chunks {
		if i > 0 {
			w.WriteByte(',')
		}
		w.WriteString(`{"id":`)
		w.str(c.ID)
		if c.Heading != "" { // omitempty
			w.WriteString(`,"heading":`)
			w.str(c.Heading)
		}
		w.WriteString(`,"text":`)
		w.str(c.Text)
		w.WriteString(`,"score":`)
		w.float(c.Score)
		if c.HasCode { // omitempty
			w.WriteString(`,"has_code":true`)
		}
		w.WriteByte('}')
	}
	w.WriteString("]}")
}

func finite(f float64) bool { return !math.IsInf(f, 0) && !math.IsNaN(f) }

// float writes f as encoding/json does: like ES6, %f between 1e-6 and
// 1e21, else %e with its exponent unpadded.
func (w *jsonWriter) float(f float64) {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b := strconv.AppendFloat(w.num[:0], f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1] // e-09 → e-9
		b = b[:n-1]
	}
	w.Write(b)
}

// str quotes s as encoding/json does with HTML escaping on: <, > and & as
// \u escapes, as are control characters without a short escape, U+2028
// and U+2029, and invalid UTF-8 as \ufffd.
func (w *jsonWriter) str(s string) {
	const hex = "0123456789abcdef"
	w.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		i = safeRun(s, i)
		if i == len(s) {
			break
		}
		if c := s[i]; c < utf8.RuneSelf {
			if jsonSafe[c] {
				i++
				continue
			}
			w.WriteString(s[start:i])
			switch c {
			case '\\', '"':
				w.WriteByte('\\')
				w.WriteByte(c)
			case '\b':
				w.WriteString(`\b`)
			case '\f':
				w.WriteString(`\f`)
			case '\n':
				w.WriteString(`\n`)
			case '\r':
				w.WriteString(`\r`)
			case '\t':
				w.WriteString(`\t`)
			default:
				w.WriteString(`\u00`)
				w.WriteByte(hex[c>>4])
				w.WriteByte(hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			w.WriteString(s[start:i])
			w.WriteString(`\ufffd`)
		case r == '\u2028' || r == '\u2029':
			w.WriteString(s[start:i])
			w.WriteString(`\u202`)
			w.WriteByte(hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	w.WriteString(s[start:])
	w.WriteByte('"')
}

// safeWord says whether all 8 bytes of b are ASCII that a JSON string
// holds as they are.
func safeWord(b string) bool { return safeRun(b[:8], 0) == 8 }

// safeRun is where the run of safe bytes from i ends, counted in whole
// words of eight: most of a text is safe, and the loop tests a word at a
// time without a call for each. A word holds a zero byte exactly when
// (w-ones)&^w&highs is not zero, and a byte below 0x20 exactly when
// (w-0x20*ones)&^w&highs is not. The five bytes to escape take three
// tests, not five: '"' and '&' differ only in bit 2 (0x22, 0x26), '<' and
// '>' only in bit 1 (0x3c, 0x3e), so a word with that bit cleared holds
// 0x22 (or 0x3c) exactly where it held either.
func safeRun(s string, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(s); i += 8 {
		b := s[i : i+8]
		w := uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
			uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
		quoteAmp := w&^(0x04*ones) ^ '"'*ones
		angle := w&^(0x02*ones) ^ '<'*ones
		backslash := w ^ '\\'*ones
		bad := w | (w-0x20*ones)&^w | (quoteAmp-ones)&^quoteAmp | (angle-ones)&^angle | (backslash-ones)&^backslash
		if bad&highs != 0 {
			break
		}
	}
	return i
}

// jsonSafe marks the ASCII bytes a JSON string holds as they are, with
// HTML escaping on.
var jsonSafe = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// jsonSize is about how long the JSON of res is, a little more.
func jsonSize(res kb.Result) int {
	n := 256 + len(res.Query)
	for _, a := range res.Articles {
		n += 96 + len(a.KBID) + len(a.Title) + len(a.URL)
		for _, t := range a.Tags {
			n += 3 + len(t)
		}
		for _, c := range a.Chunks {
			n += 64 + len(c.ID) + len(c.Heading) + len(c.Text)
		}
	}
	return n + n/8 // escapes
}
