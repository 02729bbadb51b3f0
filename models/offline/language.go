package offline

import (
	_ "embed"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/templates"
)

//go:embed glossary.tsv
var glossaryText string

// glossary maps a word of one language to the word of the other by the
// word's first five letters, so one entry stands for its family:
// "warranty" → "гарантия". Where two entries share those five letters and
// mean different things ("настроить" → "configure", "настройка" →
// "setting"), the later one is found by its first seven when
// those part it from the earlier.
type glossary struct {
	byFive, bySeven map[string]string
}

// of is word in the other language, and whether the glossary knows it.
func (g glossary) of(word string) (string, bool) {
	if t, ok := g.bySeven[firstSeven(word)]; ok {
		return t, true
	}
	t, ok := g.byFive[stem(word)]
	return t, ok
}

// add enters word's translation, unless an earlier entry holds the word's
// family: by its first seven letters, when they part it from that entry's
// word (the earlier, the more common sense: "установить" and "установка"
// share seven, and stay "install").
func (g glossary) add(word, translation string, firstOfStem map[string]string) {
	s := stem(word)
	earlier, taken := firstOfStem[s]
	if !taken {
		firstOfStem[s] = word
		g.byFive[s] = translation
		return
	}
	if key := firstSeven(word); key != firstSeven(earlier) && g.byFive[s] != translation {
		if _, claimed := g.bySeven[key]; !claimed {
			g.bySeven[key] = translation
		}
	}
}

func firstSeven(word string) string {
	var buf [7 * utf8.UTFMax]byte
	return string(appendLetters(buf[:0], []byte(word), 7))
}

var readGlossary = sync.OnceValue(func() map[string]glossary {
	newGlossary := func() glossary { return glossary{map[string]string{}, map[string]string{}} }
	out := map[string]glossary{"en": newGlossary(), "ru": newGlossary()} // keyed by the language translated into
	firstEn, firstRu := map[string]string{}, map[string]string{}
	for _, line := range strings.Split(glossaryText, "\n") {
		en, ru, ok := strings.Cut(strings.TrimSpace(line), "\t")
		if !ok || strings.HasPrefix(line, "#") {
			continue
		}
		out["ru"].add(en, ru, firstEn)
		out["en"].add(ru, en, firstRu)
	}
	return out
})

// SearchLanguage is the language searches are written in: the configured one,
// or with "auto" the language of nineteen in twenty of the articles (each
// by most of its letters); "" when the articles mix languages, and
// searches follow the user's.
func SearchLanguage(configured string, corpus []string) string {
	if slices.Contains(contracts.Languages(), configured) {
		return configured
	}
	count := map[string]int{}
	for _, text := range corpus {
		if l := writtenIn(text); l != "" {
			count[l]++
		}
	}
	for _, l := range contracts.Languages() {
		if count[l] > 0 && 20*count[l] >= 19*len(corpus) {
			return l
		}
	}
	return ""
}

// writtenIn is ru when text has more Russian letters than Latin ones (see
// letters), else en when it has Latin ones, else "". It reads text a piece
// at a time, and stops once the rest cannot change the answer: a Russian
// letter takes two bytes, a Latin one one. A piece ends before an ASCII
// byte, which no Russian letter holds, so the pieces' counts add up to the
// whole text's.
func writtenIn(text string) string {
	const piece = 1024
	cyrillic, latin := 0, 0
	for start := 0; start < len(text); {
		end := min(start+piece, len(text))
		for end < len(text) && text[end] >= utf8.RuneSelf {
			end++
		}
		c, l := letters(text[start:end])
		cyrillic, latin, start = cyrillic+c, latin+l, end
		rest := len(text) - end
		if cyrillic > latin+rest || latin > 0 && latin >= cyrillic+rest/2 {
			break
		}
	}
	switch {
	case cyrillic > latin:
		return "ru"
	case latin > 0:
		return "en"
	}
	return ""
}

// letters counts the Russian (а-я, ё, either case) and the Latin (a-z,
// either case) letters of text. It reads bytes, not runes: every Russian
// letter is two bytes led by 0xD0 or 0xD1, which no other character's
// encoding holds but at its start, and an ASCII byte is always a
// character of its own.
func letters(text string) (cyrillic, latin int) {
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c < 0x80:
			if lower := c | 0x20; 'a' <= lower && lower <= 'z' {
				latin++
			}
		case i+1 < len(text) && (c == 0xD0 || c == 0xD1):
			// А-Я а-п are D0 90..BF, Ё D0 81; р-я are D1 80..8F, ё D1 91.
			next := text[i+1]
			if c == 0xD0 && (0x90 <= next && next <= 0xBF || next == 0x81) || c == 0xD1 && (0x80 <= next && next <= 0x8F || next == 0x91) {
				cyrillic++
			}
		}
	}
	return cyrillic, latin
}

// inKBLanguage is text with the words the glossary knows written in the
// knowledge base's language, for matching it against the articles; text
// itself when it is written in that language already, or the articles mix.
func (e *Engine) inKBLanguage(text string) string {
	if e.kbLang == "" || templates.DetectLanguage(text) == e.kbLang || templates.DetectLanguage(text) == "" {
		return text
	}
	g := readGlossary()[e.kbLang]
	ws := words(text)
	for i, w := range ws {
		if t, ok := g.of(w); ok {
			ws[i] = t
		}
	}
	return strings.Join(ws, " ")
}

// inLanguage writes the queries in the knowledge base's language: each
// word the glossary knows becomes the other language's word; the others
// (names, settings, words of both languages) stay as they are. A query
// left with no word of the knowledge base's language is dropped unless it
// is the only one.
func (e *Engine) inLanguage(queries []string) []string {
	if e.kbLang == "" {
		return queries
	}
	g := readGlossary()[e.kbLang]
	var out []string
	seen := map[string]bool{}
	for _, q := range queries {
		if templates.DetectLanguage(q) == e.kbLang {
			out = append(out, q)
			continue
		}
		var ws []string
		for _, w := range words(q) {
			if t, ok := g.of(w); ok {
				w = t
			} else if stopWords[w] {
				continue
			}
			ws = append(ws, w)
		}
		t := strings.Join(ws, " ")
		if t != "" && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return queries
	}
	return out
}
