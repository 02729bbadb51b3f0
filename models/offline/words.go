package offline

import (
	"strings"
	"unicode"
)

// words splits text into lower-case words of letters and digits; an
// apostrophe inside a word is kept ("doesn't").
func words(text string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, strings.Trim(b.String(), "'’"))
			b.Reset()
		}
	}
	for _, r := range strings.ToLower(text) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		case (r == '\'' || r == '’') && b.Len() > 0:
			b.WriteRune(r)
		default:
			flush()
		}
	}
	flush()
	return out
}

// stem cuts a word to its first five letters: crude, but it makes
// "configure", "configuration" and "configuring" (or "настройка",
// "настроить") meet, which is all coverage and passage scoring need.
func stem(w string) string {
	r := []rune(strings.ReplaceAll(w, "ё", "е"))
	if len(r) > 5 {
		r = r[:5]
	}
	return string(r)
}

// contentWords drops stop words and one-letter words.
func contentWords(text string) []string {
	var out []string
	for _, w := range words(text) {
		if len([]rune(w)) > 1 && !stopWords[w] {
			out = append(out, w)
		}
	}
	return out
}

func stems(ws []string) map[string]bool {
	out := make(map[string]bool, len(ws))
	for _, w := range ws {
		out[stem(w)] = true
	}
	return out
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
	"впрочем", "хорошо", "свою", "этой", "перед", "иногда", "лучше", "чуть", "том", "нельзя", "такой", "им",
	"более", "всегда", "конечно", "всю", "между", "мне", "это", "пожалуйста", "нужно", "хочу", "мой", "ваш",
)

func set(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}
