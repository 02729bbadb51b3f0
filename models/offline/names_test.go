package offline

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNames(t *testing.T) {
	var corpus []string
	for i := range 10 {
		corpus = append(corpus, fmt.Sprintf("Part %d\n\n"+
			"Open Zorp and pick a cluster. Then Zorp saves the cluster file.\n\n"+
			"## Zorp and the cluster\n\n"+
			"```\nzorp cluster\n```\n\n"+
			"Run `zorp start`; the cluster starts. Cluster files stay.", i))
	}
	e := New(Options{Corpus: corpus})
	assert.Equal(t, map[string]bool{stem("zorp"): true}, e.reading.names(),
		"Zorp is written with a capital inside sentences; cluster is not, whatever a sentence's first word, a heading or code says")

	few := New(Options{Corpus: corpus[:1]})
	assert.Empty(t, few.reading.names(), "said in one sentence of one article: too few uses to tell")
}

func TestEachWordInside(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"Open Zorp and pick a cluster.", []string{"Zorp", "and", "pick", "a", "cluster"}},
		{"Zorp saves it. Then Zorp stops: Cluster gone", []string{"saves", "it", "Zorp", "stops", "gone"}},
		{"- Zorp, `Zorp start` (Zorp) \"Zorp\"", []string{"Zorp"}},
		{"A [link](https://zorp.example) to Zorp's page", []string{"to", "Zorp's", "page"}},
	} {
		var got []string
		eachWordInside(tc.line, func(w string) { got = append(got, w) })
		assert.Equal(t, tc.want, got, tc.line)
	}
}

// TestTellingLeavesOutTheProductsName: a product's name said in most
// articles, not nine in ten, is left out of searches as one said
// everywhere, when the articles write it as a name.
func TestTellingLeavesOutTheProductsName(t *testing.T) {
	var corpus []string
	topics := []string{"backups", "themes", "plugins", "links", "tags", "canvas", "graphs", "search", "sync", "publish"}
	for i, topic := range topics {
		body := fmt.Sprintf("%s\n\nIn Zorp the %s are kept, and Zorp shows them.", topic, topic)
		if i >= 7 {
			body = fmt.Sprintf("%s\n\nThe %s are kept.", topic, topic)
		}
		corpus = append(corpus, body)
	}
	e := New(Options{Corpus: corpus})
	assert.Equal(t, []string{"backups"}, e.telling([]string{"zorp backups"}), "Zorp: in 7 of 10 articles, written as a name")
	assert.Equal(t, []string{"shows backups"}, e.telling([]string{"shows backups"}), "shows: in the same 7 articles, written small")

	// The name in the opening section of each article only: one section
	// of four, yet it tells no article from another.
	for i := range corpus {
		corpus[i] += "\n\n## Setup\n\nSet it up.\n\n## Use\n\nUse it daily.\n\n## Care\n\nKeep it clean."
	}
	e = New(Options{Corpus: corpus})
	assert.Equal(t, []string{"backups"}, e.telling([]string{"zorp backups"}))
}

func TestProductName(t *testing.T) {
	var corpus []string
	for i := range 10 {
		body := fmt.Sprintf("Page %d\n\nThe page %d of the guide.", i, i)
		if i < 8 {
			body += " Open Zorp and check the page, then Zorp saves it."
		}
		if i < 6 {
			body += " Export it to Markdown, and the Markdown file opens anywhere."
		}
		corpus = append(corpus, body)
	}
	for _, tc := range []struct {
		product string
		want    map[string]bool
	}{
		{"", map[string]bool{stem("zorp"): true}}, // no product named: the name most articles say, not Markdown
		{"Zorp", map[string]bool{stem("zorp"): true}},
		{"Acme", map[string]bool{}}, // a product the articles do not say
	} {
		t.Run(tc.product, func(t *testing.T) {
			e := New(Options{Corpus: corpus, Product: tc.product})
			assert.Equal(t, map[string]bool{stem("zorp"): true, stem("markdown"): true}, e.reading.names())
			assert.Equal(t, tc.want, e.named())
		})
	}
}
