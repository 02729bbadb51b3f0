package offline

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/sgrgraph/sgrgraph/contracts"
)

func TestKBLanguage(t *testing.T) {
	en, ru := "The tent has a two-year warranty.", "Палатка имеет гарантию два года."
	for _, tc := range []struct {
		configured string
		corpus     []string
		want       string
	}{
		{"auto", []string{en, en}, "en"},
		{"", []string{ru, ru}, "ru"},
		{"auto", []string{en, ru}, ""}, // mixed: searches follow the user
		{"ru", []string{en, en}, "ru"},
		{"auto", nil, ""},
	} {
		assert.Equal(t, tc.want, SearchLanguage(tc.configured, tc.corpus), "%s %q", tc.configured, tc.corpus)
	}
}

// TestSearchesInTheKnowledgeBasesLanguage: a question in the other
// language searches in the articles' language, through the glossary, and
// is answered in the user's.
func TestSearchesInTheKnowledgeBasesLanguage(t *testing.T) {
	enKB := New(Options{Corpus: []string{"TrailMaster X4 Tent\nThe tent is covered by a 2-year limited warranty. Clean the tent with mild soap and water."}, KBLanguage: "auto"})
	ruKB := New(Options{Corpus: []string{"Палатка TrailMaster X4\nНа палатку действует гарантия два года. Чистить палатку мягким мылом."}, KBLanguage: "auto"})
	for _, tc := range []struct {
		e        *Engine
		request  string
		answerIn string
		want     string // a word one of the subqueries holds
	}{
		{enKB, "Какая гарантия на палатку?", "ru", "warranty"},
		{ruKB, "What is the warranty on the tent?", "en", "гарантия"},
		{enKB, "What is the warranty on the tent?", "en", "warranty"},
	} {
		p := tc.e.analyse(tc.request, "").plan
		assert.Equal(t, tc.answerIn, p.AnswerLanguage, tc.request)
		assert.Equal(t, contracts.ActionNormal, p.Action, tc.request)
		assert.Contains(t, strings.Join(p.Subqueries, " | "), tc.want, tc.request)
	}
}

// lettersByRunes is letters as first written, rune by rune.
func lettersByRunes(text string) (cyrillic, latin int) {
	for _, r := range text {
		switch {
		case r >= 'а' && r <= 'я' || r >= 'А' && r <= 'Я' || r == 'ё' || r == 'Ё':
			cyrillic++
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			latin++
		}
	}
	return cyrillic, latin
}

func FuzzLetters(f *testing.F) {
	for _, s := range wordSamples {
		f.Add(s)
	}
	f.Add("Ёё Яя Аа Пп Рр ѐ ђ ѯ Ѐ \xd0 \xd1\x91 \xe2\xd0\x90 \xd0\x90\x90")
	f.Fuzz(func(t *testing.T, text string) {
		c, l := letters(text)
		if wc, wl := lettersByRunes(text); c != wc || l != wl {
			t.Fatalf("letters(%q) = %d, %d, want %d, %d", text, c, l, wc, wl)
		}
	})
}

// FuzzWrittenIn: the language read a piece at a time, stopping early, is
// the one all of the text's letters give.
func FuzzWrittenIn(f *testing.F) {
	for _, s := range wordSamples {
		f.Add(s, 1)
	}
	f.Add(strings.Repeat("ы", 600)+strings.Repeat("a", 1100), 3)
	f.Add(strings.Repeat("a", 700)+strings.Repeat("\xd0", 900)+strings.Repeat("я", 800), 2)
	f.Add(strings.Repeat("a", 1024)+strings.Repeat("яя ", 600), 1) // Russian only once the Latin lead is passed
	f.Add(strings.Repeat("я ", 700)+strings.Repeat("ab", 600), 1)
	f.Fuzz(func(t *testing.T, text string, repeat int) {
		text = strings.Repeat(text, max(1, min(repeat, 200)))
		want := ""
		if cyrillic, latin := lettersByRunes(text); cyrillic > latin {
			want = "ru"
		} else if latin > 0 {
			want = "en"
		}
		if got := writtenIn(text); got != want {
			t.Fatalf("writtenIn(%q) = %q, want %q", text, got, want)
		}
	})
}

// TestTheGlossaryPartsWordsOfOneFamily: words sharing five letters are one
// family unless a later pair parts them by seven.
func TestTheGlossaryPartsWordsOfOneFamily(t *testing.T) {
	toEnglish, toRussian := readGlossary()["en"], readGlossary()["ru"]
	for word, want := range map[string]string{
		"настроить": "configure", "настроил": "configure", "настройки": "setting", "настройку": "setting",
		"подписка": "subscription", "подписку": "subscription", "подпись": "signature",
		"сообщение": "message", "сообщить": "report",
		"установить": "install", "установка": "install", // seven letters in common: the earlier pair holds both
		"гарантию": "warranty",
	} {
		got, ok := toEnglish.of(word)
		assert.True(t, ok, word)
		assert.Equal(t, want, got, word)
	}
	got, ok := toRussian.of("settings")
	assert.True(t, ok)
	assert.Equal(t, "настройка", got)
	_, ok = toEnglish.of("палантин")
	assert.False(t, ok, "a word the glossary does not hold")
}
