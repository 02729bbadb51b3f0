package kb

import (
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"
)

// Title words nearly every article says are searched in the text alone.
//
// A title field match ranks an article first for a word of its title. A
// word nearly every article of the knowledge base says, as its product's
// name ("etcd", "Helm"), tells no article from another, yet it is in some
// titles and not others ("Upgrading etcd clusters", "Runtime
// reconfiguration"): a search that says it, as a model's searches often
// do, ranked first the articles whose titles happen to carry it, and
// removing the product's name from the headings changed which article
// answered. Such a word still counts where the text says it.

// Bounds of "nearly every article": nine in ten, of a knowledge base of
// eight articles or more (in fewer, a word most of them share may still
// name one thing).
const (
	sharedArticleShare = 0.9
	minSharedArticles  = 8
)

// titleTerms are, per language (languages' order), the terms of the
// articles' titles.
func titleTerms(b bleve.Index) ([]map[string]bool, error) {
	out := make([]map[string]bool, len(languages))
	for i, l := range languages {
		out[i] = map[string]bool{}
		if err := eachTerm(b, l.title, func(term string, _ uint64) { out[i][term] = true }); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// sharedTerms are, per language (languages' order), the terms nearly
// every article's text holds. articles is how many articles the
// generation holds. Whether a title holds one does not matter: the title
// query is the same with the name in the titles or not.
func sharedTerms(b bleve.Index, articles int) ([][]string, error) {
	out := make([][]string, len(languages))
	if articles < minSharedArticles {
		return out, nil
	}
	least := uint64(sharedArticleShare * float64(articles))
	for i, l := range languages {
		often := map[string]uint64{} // in enough chunks to be in enough articles, with how many
		var order []string
		err := eachTerm(b, l.text, func(term string, chunks uint64) {
			if chunks >= least {
				often[term] = chunks
				order = append(order, term)
			}
		})
		if err != nil {
			return nil, err
		}
		for _, t := range order {
			n, err := articlesSaying(b, l.text, t, often[t])
			if err != nil {
				return nil, err
			}
			if float64(n) >= sharedArticleShare*float64(articles) {
				out[i] = append(out[i], t)
			}
		}
	}
	return out, nil
}

// eachTerm calls fn with each term of field's dictionary, in its order,
// and how many chunks hold it.
func eachTerm(b bleve.Index, field string, fn func(term string, chunks uint64)) error {
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
		fn(e.Term, e.Count)
	}
}

// articlesSaying counts the articles of the chunks (as many as the
// dictionary counted) that hold term in field. A chunk's id is its file's
// path, '#' and its number (docID).
func articlesSaying(b bleve.Index, field, term string, chunks uint64) (int, error) {
	q := query.NewTermQuery(term)
	q.SetField(field)
	res, err := b.Search(bleve.NewSearchRequestOptions(q, int(chunks), 0, false))
	if err != nil {
		return 0, err
	}
	seen := map[string]bool{}
	for _, h := range res.Hits {
		seen[h.ID[:max(strings.LastIndexByte(h.ID, '#'), 0)]] = true
	}
	return len(seen), nil
}

// titleTokens are the query's tokens searched in a title field: those of
// language i that some title holds and that are not shared terms. A word
// no title holds matches none, and searched, it still weighs in the
// query's norm: the scores of the same search would differ between a
// knowledge base whose titles name the product and one whose do not.
func (g generation) titleTokens(i int, tokens []string) []string {
	if g.titled == nil {
		return tokens
	}
	out := make([]string, 0, len(tokens))
	for _, t := range tokens {
		if g.titled[i][t] && !g.isShared(i, t) {
			out = append(out, t)
		}
	}
	return out
}

// isShared: term is a shared term of language i.
func (g generation) isShared(i int, term string) bool {
	return len(g.shared) > i && slices.Contains(g.shared[i], term)
}
