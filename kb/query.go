package kb

import (
	"slices"
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/lang/ru"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/registry"
	"github.com/blevesearch/bleve/v2/search/query"
)

// searchableWords is the analyzer that finds a query's searchable words:
// every word that is a stop word in none of the indexed languages. Each
// language's analyzer drops only its own stop words, so without this "the"
// would be searched through the Russian analyzer, and "и" through the
// English one, and match nearly every chunk. It is built once a process,
// as building its stop-word maps took a third of the time opening an index
// took: an analyzer never changes and is safe for concurrent use.
var searchableWords = sync.OnceValues(func() (analysis.Analyzer, error) {
	cache := registry.NewCache()
	tok, err := cache.TokenizerNamed(unicode.Name)
	if err != nil {
		return nil, err
	}
	filters := []analysis.TokenFilter{}
	for _, name := range []string{lowercase.Name, en.StopName, ru.StopName} {
		f, err := cache.TokenFilterNamed(name)
		if err != nil {
			return nil, err
		}
		filters = append(filters, f)
	}
	return &analysis.DefaultAnalyzer{Tokenizer: tok, TokenFilters: filters}, nil
})

// searchable is q without its stop words, the text actually searched.
func (idx *Index) searchable(q string) string {
	toks := idx.words.Analyze([]byte(q))
	words := make([]string, len(toks))
	for i, t := range toks {
		words[i] = string(t.Term)
	}
	return strings.Join(words, " ")
}

// queryText is the searchable words of a query analyzed for each
// language, indexed like languages: the tokens, in order, that bleve's
// match query would search for, and the distinct terms among them.
type queryText struct {
	tokens, terms [][]string
}

// analyze analyzes the searchable words once per language.
func (idx *Index) analyze(words string) queryText {
	qt := queryText{tokens: make([][]string, len(languages)), terms: make([][]string, len(languages))}
	for i, l := range languages {
		for _, tok := range idx.mapping.AnalyzerNamed(l.analyzer).Analyze([]byte(words)) {
			t := string(tok.Term)
			qt.tokens[i] = append(qt.tokens[i], t)
			if !slices.Contains(qt.terms[i], t) {
				qt.terms[i] = append(qt.terms[i], t)
			}
		}
	}
	return qt
}

// matchQuery is the query bleve.NewMatchQuery builds for the words on
// field with the field's analyzer, given the tokens that analyzer makes of
// them: a match query analyzes its text again for every field it is given.
func matchQuery(tokens []string, field string) query.Query {
	if len(tokens) == 0 {
		return query.NewMatchNoneQuery()
	}
	tqs := make([]query.Query, len(tokens))
	for i, t := range tokens {
		tq := query.NewTermQuery(t)
		tq.SetField(field)
		tq.SetBoost(1)
		tqs[i] = tq
	}
	q := query.NewDisjunctionQuery(tqs)
	q.SetMin(1)
	q.SetBoost(1)
	return q
}
