package nodes

import (
	"slices"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/templates"
)

// answerLanguage is the language of the turn's texts: the one already
// settled on the state, else the language the user wrote in, else
// fallback; only languages the catalogue has count.
func answerLanguage(s *contracts.ChatState, texts *templates.Set, fallback string) string {
	langs := texts.Languages()
	for _, l := range []string{s.Language, templates.DetectLanguage(s.UserMessage), fallback} {
		if slices.Contains(langs, l) {
			return l
		}
	}
	return langs[0]
}

// text is a catalogue text for the turn; a missing text is a configuration
// error caught when the catalogue loads, so an error here names the key.
func text(texts *templates.Set, lang, key, product string) (string, error) {
	return texts.Text(lang, key, map[string]string{"product": product})
}
