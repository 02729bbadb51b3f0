// Package text matches words the way the knowledge base (package kb) does:
// bleve's unicode tokenizer without the English and Russian stop words, then
// each language's analyzer (lowercase, stop words, stemming). A memory item
// found by "cats" when it says "cat", or by "сахар" when it says "сахара",
// is found by the same words as an article would be.
package text

import (
	"slices"
	"sync"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/lang/ru"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/registry"
)

// analyzers are built once a process (the stop-word maps are costly) and
// are safe for concurrent use: words drops the stop words of both
// languages, as kb's searchableWords does, and langs are kb's languages.
var analyzers = sync.OnceValues(func() (analyzerSet, error) {
	cache := registry.NewCache()
	tok, err := cache.TokenizerNamed(unicode.Name)
	if err != nil {
		return analyzerSet{}, err
	}
	var filters []analysis.TokenFilter
	for _, name := range []string{lowercase.Name, en.StopName, ru.StopName} {
		f, err := cache.TokenFilterNamed(name)
		if err != nil {
			return analyzerSet{}, err
		}
		filters = append(filters, f)
	}
	set := analyzerSet{words: &analysis.DefaultAnalyzer{Tokenizer: tok, TokenFilters: filters}}
	for _, name := range []string{en.AnalyzerName, ru.AnalyzerName} {
		a, err := cache.AnalyzerNamed(name)
		if err != nil {
			return analyzerSet{}, err
		}
		set.langs = append(set.langs, a)
	}
	return set, nil
})

type analyzerSet struct {
	words analysis.Analyzer
	langs []analysis.Analyzer
}

// Query is a text query analyzed once: its distinct terms per language.
type Query struct {
	terms [][]string
}

// Parse analyzes q. A query of stop words only has no terms and finds
// nothing, as in the knowledge base.
func Parse(q string) (Query, error) {
	set, err := analyzers()
	if err != nil {
		return Query{}, err
	}
	var words []byte
	for _, t := range set.words.Analyze([]byte(q)) {
		words = append(append(words, t.Term...), ' ')
	}
	out := Query{terms: make([][]string, len(set.langs))}
	for i, a := range set.langs {
		for _, t := range a.Analyze(words) {
			if s := string(t.Term); !slices.Contains(out.terms[i], s) {
				out.terms[i] = append(out.terms[i], s)
			}
		}
	}
	return out, nil
}

// Empty says whether q has no term to look for.
func (q Query) Empty() bool {
	for _, ts := range q.terms {
		if len(ts) > 0 {
			return false
		}
	}
	return true
}

// Score is the share of q's terms that doc holds, in the language where
// the share is larger: kb's coverage, in [0,1]. 0 means no match.
func (q Query) Score(doc string) float64 {
	set, err := analyzers()
	if err != nil || q.Empty() {
		return 0 // Parse has already reported err
	}
	best := 0.0
	for i, a := range set.langs {
		if len(q.terms[i]) == 0 {
			continue
		}
		have := map[string]bool{}
		for _, t := range a.Analyze([]byte(doc)) {
			have[string(t.Term)] = true
		}
		n := 0
		for _, t := range q.terms[i] {
			if have[t] {
				n++
			}
		}
		best = max(best, float64(n)/float64(len(q.terms[i])))
	}
	return best
}
