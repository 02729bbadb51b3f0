package offline

import (
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// Reading is a corpus read into words: the titles and the topic model New
// takes from Options.Corpus, most of what New costs. It is not changed once
// made, so engines over the same articles may share one (Options.Reading).
type Reading struct {
	corpus []string
	titled []found // the titles, an article each, with their stems
	// byTitle is the place in titled of each title, which gives an
	// article a search found its stems without reading its title again.
	byTitle map[string]int
	topics  topicModel
	// language is SearchLanguage("auto", corpus), found when first asked
	// for: a configured language needs none.
	language func() string
	// definitions are the corpus's defining sentences by the name they
	// define, found when a question first asks what something is.
	definitions func() map[string]string
	// sections counts the corpus's sections and those holding each
	// stem (sectionCounts), found when a search is first planned.
	sections func() sectionCounts
	// names are the stems of the words the corpus writes as its
	// product's name (names), found when a search is first planned.
	names func() map[string]bool
	// headings are the corpus's titles and headings (headingsOf), which
	// an answer does not quote as lines of its own (boilerplate).
	headings func() map[string]bool
}

// Read reads a corpus (see Options.Corpus) as New does.
func Read(corpus []string) *Reading {
	r := &Reading{corpus: corpus, titled: make([]found, 0, len(corpus)), byTitle: make(map[string]int, len(corpus)),
		language:    sync.OnceValue(func() string { return SearchLanguage("auto", corpus) }),
		definitions: sync.OnceValue(func() map[string]string { return definitions(corpus) }),
		sections:    sync.OnceValue(func() sectionCounts { return countSections(corpus) }),
		headings:    sync.OnceValue(func() map[string]bool { return headingsOf(corpus) })}
	for _, text := range corpus {
		title, _, _ := strings.Cut(text, "\n")
		if title = strings.TrimSpace(title); utf8.RuneCountInString(title) > 100 || strings.Contains(title, ". ") {
			title = "" // a sentence, not a title: an entry without its title line
		}
		if _, ok := r.byTitle[title]; !ok && title != "" {
			r.byTitle[title] = len(r.titled)
		}
		r.titled = append(r.titled, found{title: title, titleStems: titleStems(title), brand: brandOf(title)})
	}
	// The vocabulary is the stems the topic model counted (coverage): the
	// corpus is read into words once.
	r.topics = newTopicModel(corpus)
	r.names = sync.OnceValue(func() map[string]bool { return names(corpus, r.topics.everywhere) })
	return r
}

// searchLanguage is SearchLanguage(configured, r's corpus).
func (r *Reading) searchLanguage(configured string) string {
	if slices.Contains(contracts.Languages(), configured) {
		return configured
	}
	return r.language()
}
