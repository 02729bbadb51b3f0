package templates

import (
	"strings"
	"unicode"
)

// DetectLanguage guesses the language of text: the one more of its
// function words ("how", "the"; "как", "в") belong to, else the one most
// of its letters are written in; "" when text has no letters to go by. The
// words decide first because a Russian sentence writes product names,
// commands and settings in Latin letters ("Сколько весит TrailMaster X4
// Tent?"), and an English one may quote a Russian message.
func DetectLanguage(text string) string {
	ru, en := 0, 0
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) }) {
		switch {
		case russianFunctionWords[w]:
			ru++
		case englishFunctionWords[w]:
			en++
		}
	}
	switch {
	case ru > en:
		return "ru"
	case en > ru:
		return "en"
	}
	cyr, lat := 0, 0
	for _, r := range text {
		switch {
		case unicode.Is(unicode.Cyrillic, r):
			cyr++
		case unicode.Is(unicode.Latin, r):
			lat++
		}
	}
	switch {
	case cyr == 0 && lat == 0:
		return ""
	case cyr >= lat:
		return "ru"
	}
	return "en"
}

// The words that tell a language: question words, prepositions,
// conjunctions, pronouns and auxiliaries, which any sentence has. The
// offline engine's stop words are a wider list for another purpose, and
// that package imports this one, not the other way.
var (
	englishFunctionWords = wordSet("a an the and or but of to in on at by for with from about into is are was were be been " +
		"do does did have has had can could will would should may might must not no how what why when where which who " +
		"i you he she it we they my your its our their this that these those there here if than then so")
	russianFunctionWords = wordSet("и в во на с со к ко по за из от до о об у не ни но а или ли же бы как что почему " +
		"зачем когда где куда какой какая какое какие сколько кто чей я ты он она оно мы вы они мой твой наш ваш его её их " +
		"это этот эта эти тот та те там тут здесь если то чтобы для при без над под через между можно нужно есть нет")
)

func wordSet(words string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(words) {
		out[w] = true
	}
	return out
}
