package templates

import "unicode"

// DetectLanguage guesses the language of text from its letters: "ru" when
// Cyrillic letters are the majority, "en" when Latin ones are, "" when text
// has no letters to go by.
func DetectLanguage(text string) string {
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
