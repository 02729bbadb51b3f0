package kb

import (
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/mapping"
)

// Titles are indexed without the words nearly every article says.
//
// A title field match ranks an article first for a word of its title. A
// word nearly every article of the knowledge base says, as its product's
// name ("etcd", "Keet"), tells no article from another, yet it is in some
// titles and not others ("Keet App issues", "App Permissions"). Searched
// in titles, it ranked first the articles whose titles happen to carry
// it; and only indexed there, it still made those titles longer, so that
// "App issues" outranked "App Permissions" for "app" where "Keet App
// issues" did not. Removing the product's name from the headings changed
// which article answered. Such a word still counts where the text says
// it.

// Bounds of "nearly every article": nine in ten, of a knowledge base of
// eight articles or more (in fewer, a word most of them share may still
// name one thing).
const (
	sharedArticleShare = 0.9
	minSharedArticles  = 8
)

// sharedTerms are, per language (languages' order), the terms of the
// analyzer of that language that nearly every article's text holds,
// sorted: what the articles' titles are indexed without.
func sharedTerms(m mapping.IndexMapping, docs []Doc) [][]string {
	out := make([][]string, len(languages))
	if len(docs) < minSharedArticles {
		return out
	}
	least := sharedArticleShare * float64(len(docs))
	for i, l := range languages {
		a := m.AnalyzerNamed(l.analyzer)
		articles := map[string]int{}
		for _, d := range docs {
			said := map[string]bool{}
			for _, c := range chunkDoc(d) {
				for _, tok := range a.Analyze([]byte(c.Text)) {
					said[string(tok.Term)] = true
				}
			}
			for t := range said {
				articles[t]++
			}
		}
		for t, n := range articles {
			if float64(n) >= least {
				out[i] = append(out[i], t)
			}
		}
		slices.Sort(out[i])
	}
	return out
}

// titleWithout is title without its words whose every term (by a) is one
// of shared: "Keet App issues" is indexed as "App issues" in Keet's
// knowledge base.
func titleWithout(a analysis.Analyzer, title string, shared []string) string {
	if len(shared) == 0 {
		return title
	}
	words := strings.Fields(title)
	kept := words[:0:0]
	for _, w := range words {
		toks := a.Analyze([]byte(w))
		said := len(toks) > 0
		for _, tok := range toks {
			_, found := slices.BinarySearch(shared, string(tok.Term))
			said = said && found
		}
		if !said {
			kept = append(kept, w)
		}
	}
	return strings.Join(kept, " ")
}

// titleTerms are, per language (languages' order), the terms of the
// articles' titles.
func titleTerms(b bleve.Index) ([]map[string]bool, error) {
	out := make([]map[string]bool, len(languages))
	for i, l := range languages {
		out[i] = map[string]bool{}
		if err := eachTerm(b, l.title, func(term string) { out[i][term] = true }); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// eachTerm calls fn with each term of field's dictionary, in its order.
func eachTerm(b bleve.Index, field string, fn func(term string)) error {
	dict, err := b.FieldDict(field)
	if err != nil {
		return err
	}
	defer dict.Close()
	for {
		e, err := dict.Next()
		if err != nil || e == nil {
			return err
		}
		fn(e.Term)
	}
}

// titleTokens are the query's tokens searched in a title field: those of
// language i that some title holds. A word no title holds matches none,
// and searched, it still weighs in the query's norm: the scores of the
// same search would differ between a knowledge base whose titles name the
// product and one whose do not.
func (g generation) titleTokens(i int, tokens []string) []string {
	if g.titled == nil {
		return tokens
	}
	out := make([]string, 0, len(tokens))
	for _, t := range tokens {
		if g.titled[i][t] {
			out = append(out, t)
		}
	}
	return out
}
