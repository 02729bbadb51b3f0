package contracts

import (
	"fmt"
	"slices"
	"strings"
)

// Languages lists the languages a turn answers in: the offline engine
// reads them, the knowledge base's analyzers stem them and the texts'
// catalogue carries them. It is the one list every check of a language
// setting or request field uses; a test holds the catalogue to it.
func Languages() []string { return []string{"en", "ru"} }

// CheckLanguage names field when lang is not one of Languages.
func CheckLanguage(field, lang string) error {
	if slices.Contains(Languages(), lang) {
		return nil
	}
	return fmt.Errorf("%s: %q is not %s", field, lang, LanguageChoice())
}

// LanguageChoice is Languages as an error message offers them: "en or ru".
func LanguageChoice() string {
	l := Languages()
	return strings.Join(l[:len(l)-1], ", ") + " or " + l[len(l)-1]
}
