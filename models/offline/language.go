package offline

import (
	_ "embed"
	"strings"
	"sync"

	"github.com/sgrgraph/sgrgraph/templates"
)

//go:embed glossary.tsv
var glossaryText string

// glossary maps the stem of a word of one language to the word of the
// other: "настроить" → "configure", "warranty" → "гарантия".
type glossary map[string]string

var readGlossary = sync.OnceValue(func() map[string]glossary {
	out := map[string]glossary{"en": {}, "ru": {}} // keyed by the language translated into
	for _, line := range strings.Split(glossaryText, "\n") {
		en, ru, ok := strings.Cut(strings.TrimSpace(line), "\t")
		if !ok || strings.HasPrefix(line, "#") {
			continue
		}
		if _, dup := out["ru"][stem(en)]; !dup {
			out["ru"][stem(en)] = ru
		}
		if _, dup := out["en"][stem(ru)]; !dup {
			out["en"][stem(ru)] = en
		}
	}
	return out
})

// SearchLanguage is the language searches are written in: the configured one,
// or with "auto" the language of nineteen in twenty of the articles (each
// by most of its letters); "" when the articles mix languages, and
// searches follow the user's.
func SearchLanguage(configured string, corpus []string) string {
	if configured == "ru" || configured == "en" {
		return configured
	}
	count := map[string]int{}
	for _, text := range corpus {
		cyrillic, latin := 0, 0
		for _, r := range text {
			switch {
			case r >= 'а' && r <= 'я' || r >= 'А' && r <= 'Я' || r == 'ё' || r == 'Ё':
				cyrillic++
			case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
				latin++
			}
		}
		if cyrillic > latin {
			count["ru"]++
		} else if latin > 0 {
			count["en"]++
		}
	}
	for _, l := range []string{"en", "ru"} {
		if count[l] > 0 && 20*count[l] >= 19*len(corpus) {
			return l
		}
	}
	return ""
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
		if t, ok := g[stem(w)]; ok {
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
			if t, ok := g[stem(w)]; ok {
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
