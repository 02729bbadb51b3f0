package offline

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// words splits text into lower-case words of letters and digits; an
// apostrophe inside a word is kept ("doesn't").
func words(text string) []string {
	var out []string
	eachWord(text, make([]byte, 0, 32), func(w []byte) { out = append(out, string(w)) })
	return out
}

// eachWord calls fn with each word of text as words gives it, in a buffer
// that fn must not keep: the scanner behind words, and behind the passage
// scoring that reads every sentence of every article found, which
// allocates nothing per word. Lower-casing rune by rune is what
// strings.ToLower does to the whole text.
func eachWord(text string, buf []byte, fn func(w []byte)) {
	b := buf[:0]
	flush := func() {
		if len(b) > 0 {
			fn(trimApostrophes(b)) // a word starts with a letter or digit: only its end may hold apostrophes
			b = b[:0]
		}
	}
	for i := 0; i < len(text); {
		if c := text[i]; c < utf8.RuneSelf { // ASCII, most of the text: what unicode says of it, without asking
			if lowerOrDigit[c] {
				j := i + 1 // the run of lower-case letters and digits, copied at once
				for j < len(text) && lowerOrDigit[text[j]] {
					j++
				}
				b, i = append(b, text[i:j]...), j
				continue
			}
			i++
			switch {
			case c == '\'' && len(b) > 0:
				b = append(b, c)
			case 'A' <= c && c <= 'Z':
				b = append(b, c+'a'-'A')
			case len(b) > 0:
				flush()
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		r = unicode.ToLower(r)
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b = utf8.AppendRune(b, r)
		case r == '’' && len(b) > 0:
			b = utf8.AppendRune(b, r)
		default:
			flush()
		}
	}
	flush()
}

// trimApostrophes is bytes.TrimRight(w, "'’") for a word of valid UTF-8,
// without the search for the characters that cut set takes.
func trimApostrophes(w []byte) []byte {
	for len(w) > 0 {
		switch last := w[len(w)-1]; {
		case last == '\'':
			w = w[:len(w)-1]
		case last == "’"[2] && bytes.HasSuffix(w, []byte("’")):
			w = w[:len(w)-len("’")]
		default:
			return w
		}
	}
	return w
}

// stem cuts a word to its first five letters: crude, but it makes
// "configure", "configuration" and "configuring" (or "настройка",
// "настроить") meet, which is all coverage and passage scoring need.
func stem(w string) string {
	var buf [5 * utf8.UTFMax]byte
	return string(appendStem(buf[:0], []byte(w)))
}

// appendStem appends the stem of w, as stem gives it, to dst.
func appendStem(dst, w []byte) []byte { return appendLetters(dst, w, 5) }

// appendLetters appends the first n letters of w to dst, ё read as е.
func appendLetters(dst, w []byte, n int) []byte {
	for _, r := range string(w) {
		if n == 0 {
			break
		}
		dst = utf8.AppendRune(dst, yoAsYe(r))
		n--
	}
	return dst
}

func yoAsYe(r rune) rune {
	if r == 'ё' {
		return 'е'
	}
	return r
}

// contentWords drops stop words and one-letter words.
func contentWords(text string) []string {
	var out []string
	eachContentWord(text, make([]byte, 0, 32), func(w []byte) { out = append(out, string(w)) })
	return out
}

// eachContentWord is eachWord over the words contentWords keeps.
func eachContentWord(text string, buf []byte, fn func(w []byte)) {
	eachWord(text, buf, func(w []byte) {
		if contentWord(w) {
			fn(w)
		}
	})
}

// contentWord: a word of eachWord's that contentWords keeps, one that is
// neither a single letter nor a stop word.
func contentWord(w []byte) bool {
	return (len(w) > utf8.UTFMax || utf8.RuneCount(w) > 1) && !(stopSketch.may(w) && stopWords[string(w)])
}

var stopWords = set(
	// en
	"a", "an", "the", "and", "or", "but", "if", "then", "of", "to", "in", "on", "at", "by", "for", "with", "about",
	"from", "into", "is", "are", "was", "were", "be", "been", "being", "am", "do", "does", "did", "doing", "done",
	"have", "has", "had", "i", "me", "my", "we", "our", "you", "your", "he", "she", "it", "its", "they", "them",
	"their", "this", "that", "these", "those", "what", "which", "who", "whom", "how", "why", "when", "where", "can",
	"could", "should", "would", "will", "shall", "may", "might", "must", "please", "there", "here", "so", "as",
	"not", "no", "yes", "up", "out", "get", "got", "use", "using", "need", "want", "some", "any", "all", "just",
	"also", "very", "too", "more", "most", "own", "same", "than", "only", "one", "way", "make", "let", "i'm",
	"another", "other", "else", "like", "know", "tell", "much", "many", "what's", "where's", "who's", "how's", "it's",
	"that's", "there's", "here's", "let's",
	// ru
	"и", "в", "во", "не", "что", "он", "на", "я", "с", "со", "как", "а", "то", "все", "она", "так", "его", "но",
	"да", "ты", "к", "у", "же", "вы", "за", "бы", "по", "ее", "её", "мне", "было", "вот", "от", "меня", "еще", "ещё",
	"нет", "о", "из", "ему", "теперь", "когда", "даже", "ну", "ли", "если", "уже", "или", "ни", "быть", "был",
	"него", "до", "вас", "нибудь", "опять", "уж", "вам", "ведь", "там", "потом", "себя", "ничего", "ей", "может",
	"они", "тут", "где", "есть", "надо", "ней", "для", "мы", "тебя", "их", "чем", "была", "сам", "чтоб", "без",
	"будто", "чего", "раз", "тоже", "себе", "под", "будет", "тогда", "кто", "этот", "того", "потому", "этого",
	"какой", "совсем", "ним", "здесь", "этом", "один", "почти", "мой", "тем", "чтобы", "нее", "сейчас", "были",
	"куда", "зачем", "всех", "никогда", "можно", "при", "наконец", "два", "об", "другой", "хоть", "после", "над",
	"больше", "тот", "через", "эти", "нас", "про", "всего", "них", "какая", "много", "разве", "три", "эту", "моя",
	"впрочем", "хорошо", "свою", "этой", "перед", "иногда", "лучше", "чуть", "том", "нельзя", "такой", "такое", "такая", "такие", "им",
	"более", "всегда", "конечно", "всю", "между", "мне", "это", "пожалуйста", "нужно", "хочу", "мой", "ваш",
)

func set(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// formStem is stem after the endings of an English word's forms are cut
// ("hikes", "hiking" and "hiked" are "hik"; "carried" and "carry" are
// "carry"; "breathable" and "breathability" are "breath"), so that a
// sentence answers a question in another form of its words. Other
// languages keep stem's crude cut, which already ignores their endings.
func formStem(w string) string {
	if !isASCII(w) {
		return stem(w)
	}
	for _, e := range englishEndings {
		if len(w)-len(e.cut) >= 3 && strings.HasSuffix(w, e.cut) && !(e.cut == "s" && strings.HasSuffix(w, "ss")) {
			w = w[:len(w)-len(e.cut)] + e.add
			break
		}
	}
	if len(w) > 3 && strings.HasSuffix(w, "e") {
		w = w[:len(w)-1]
	}
	return stem(w)
}

// englishEndings are the endings formStem cuts, longest first: the first
// that ends a word is cut.
var englishEndings = []struct{ cut, add string }{
	{"ability", ""}, {"ibility", ""}, {"ically", ""}, {"ations", ""}, {"ation", ""}, {"ably", ""}, {"able", ""},
	{"ible", ""}, {"ness", ""}, {"ments", ""}, {"ment", ""}, {"ings", ""}, {"ing", ""}, {"ied", "y"}, {"ies", "y"},
	{"ly", ""}, {"sses", "ss"}, {"ed", ""}, {"es", ""}, {"'s", ""}, {"s", ""},
}

// lowerOrDigit marks the bytes a-z and 0-9.
var lowerOrDigit = func() (t [256]bool) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	return t
}()

// stopSketch tells at a glance most words that are no stop word, which the
// corpus's words mostly are, so that only the others are looked up.
var stopSketch = newSketch(stopWords)

// sketch is a set of words known by their length and first and last
// bytes: a word whose bit is clear is not in the set; one whose bit is set
// may be.
type sketch [64]uint64

func newSketch(words map[string]bool) *sketch {
	var s sketch
	for w := range words {
		b := sketchBit([]byte(w))
		s[b/64] |= 1 << (b % 64)
	}
	return &s
}

func (s *sketch) may(w []byte) bool {
	b := sketchBit(w)
	return s[b/64]&(1<<(b%64)) != 0
}

func sketchBit(w []byte) uint {
	if len(w) == 0 {
		return 0
	}
	return (uint(len(w))*257 + uint(w[0])*31 + uint(w[len(w)-1])) % (64 * 64)
}
