package offline

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

// product is a knowledge base of ten articles about "acme", each with a
// features section and a care section: "acme" is in two sections of each,
// "clean" only in the care section.
func product() *Engine {
	var corpus []string
	for i := range 10 {
		corpus = append(corpus, fmt.Sprintf("Part %d\n\nThe acme unit %d.\n\n## Features\n\nacme features: a strong seal.\n\n## Care\n\nClean it with a cloth.", i, i))
	}
	return New(Options{Corpus: corpus})
}

func TestTelling(t *testing.T) {
	e := product()
	for _, tc := range []struct {
		name    string
		queries []string
		want    []string
	}{
		{"a word of every article and most sections is left out", []string{"acme part seal"}, []string{"part seal"}},
		{"a word of every article's one section stays", []string{"clean acme"}, []string{"clean"}},
		{"a search of that word alone is dropped", []string{"acme", "acme strong seal"}, []string{"strong seal"}},
		{"searches that become one are one", []string{"acme seal", "seal"}, []string{"seal"}},
		{"nothing else asked: kept as they are", []string{"acme", "Acme"}, []string{"acme", "Acme"}},
		{"case does not hide it", []string{"ACME part"}, []string{"part"}},
		{"a file named after it stays", []string{"acme.yaml acme part"}, []string{"acme.yaml part"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, e.telling(tc.queries))
		})
	}
}

func TestTellingNeedsSomeArticles(t *testing.T) {
	e := New(Options{Corpus: []string{"One\n\nacme one", "Two\n\nacme two"}})
	assert.Equal(t, []string{"acme one"}, e.telling([]string{"acme one"}), "in two articles, a shared word may still name one")
}

func TestCountSectionsLeavesHeadingsOut(t *testing.T) {
	named := countSections([]string{"Acme guide\n\n## Acme setup\n\nPlug it in.\n\n## Care\n\nClean the acme.", "Acme part\n\nacme"})
	unnamed := countSections([]string{"Guide\n\n## Setup\n\nPlug it in.\n\n## Care\n\nClean the acme.", "Part\n\nacme"})
	assert.Equal(t, unnamed, named, "the product's name in a title or heading is no word of its section")
	assert.Equal(t, 3, named.sections)
	assert.Equal(t, 2, named.holding[stem("acme")])
}

func TestAtxHeading(t *testing.T) {
	for line, want := range map[string]bool{"## Care": true, "#": true, "###### Six": true, "####### Seven": false, "#zorp #notes": false, "#1 rule": false} {
		assert.Equal(t, want, atxHeading(line), line)
	}
}

func TestCountSections(t *testing.T) {
	c := countSections([]string{"Title\n\nintro acme\n\n```\n# not a heading\n```\n\n## Care\n\nclean it", "Other\n\nacme"})
	assert.Equal(t, 3, c.sections)
	assert.Equal(t, 2, c.holding[stem("acme")])
	assert.Equal(t, 1, c.holding[stem("clean")])
	assert.True(t, c.often(stem("acme")))
	assert.False(t, c.often(stem("clean")))
}
