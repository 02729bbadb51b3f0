package kb

import (
	"strconv"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMatchQueryFromTokens: the query built from the analyzed tokens finds
// what bleve's match queries find, with the same scores.
func TestMatchQueryFromTokens(t *testing.T) {
	docs, errs := LoadDir("../docs")
	require.Empty(t, errs)
	idx, err := Open(t.TempDir(), DefaultOptions())
	require.NoError(t, err)
	defer idx.Close()
	_, err = idx.Sync(append(docs, benchDocs(20)...))
	require.NoError(t, err)
	search := func(qs []query.Query) []string {
		req := bleve.NewSearchRequestOptions(bleve.NewDisjunctionQuery(qs...), 50, 0, false)
		found, err := idx.gen.bleve.Search(req)
		require.NoError(t, err)
		var hits []string
		for _, h := range found.Hits {
			hits = append(hits, h.ID+" "+strconv.FormatFloat(h.Score, 'g', -1, 64))
		}
		return hits
	}
	for _, q := range []string{"configure the safety guard", "guard guard guard", "Как настроить фильтр безопасности?",
		"retries retrying retried", "evidence contract политика", "sgrgraph", "Article 7 graph graph"} {
		words := idx.searchable(q)
		qt := idx.analyze(words)
		var want, got []query.Query
		for i, l := range languages {
			for _, field := range []string{l.text, l.title} {
				m := bleve.NewMatchQuery(words)
				m.SetField(field)
				m.Analyzer = l.analyzer
				want = append(want, m)
				got = append(got, matchQuery(qt.tokens[i], field))
			}
		}
		w := search(want)
		assert.NotEmpty(t, w, q)
		assert.Equal(t, w, search(got), q)
	}
}
