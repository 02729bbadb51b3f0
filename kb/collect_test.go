package kb

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTopHitsAreBleveSearchHits: the hits topHits collects are the hits
// bleve's Search returns sorted by score and then ID, in that order and
// with its scores, ties included (copies of one article score the same).
func TestTopHitsAreBleveSearchHits(t *testing.T) {
	docs, errs := LoadDir("../docs")
	require.Empty(t, errs)
	docs = append(docs, benchDocs(60)...)
	for i := range 8 {
		d := docs[0]
		d.Path, d.KBID, d.Hash = fmt.Sprintf("copy%d.md", i), fmt.Sprintf("copy%d", i), "copy"
		docs = append(docs, d)
	}
	idx, err := Open(t.TempDir(), DefaultOptions())
	require.NoError(t, err)
	defer idx.Close()
	_, err = idx.Sync(docs)
	require.NoError(t, err)
	ties := 0
	for _, q := range []string{"configure the safety guard", "guard", "фильтр безопасности", "graph node edge table rule",
		"sgrgraph", "agent tool stream", "nothing-matches-this", docs[0].Title} {
		qt := idx.analyze(idx.searchable(q))
		var qs []query.Query
		for i, l := range languages {
			for _, field := range []string{l.text, l.title} {
				qs = append(qs, matchQuery(qt.tokens[i], field))
			}
		}
		for _, size := range []int{1, 7, 10, 50, 500} {
			req := bleve.NewSearchRequestOptions(bleve.NewDisjunctionQuery(qs...), size, 0, false)
			req.SortBy([]string{"-_score", "_id"})
			found, err := idx.gen.bleve.Search(req)
			require.NoError(t, err)
			got, release, err := idx.gen.topHits(bleve.NewDisjunctionQuery(qs...), size)
			require.NoError(t, err)
			var want, have []string
			for _, h := range found.Hits {
				want = append(want, h.ID+" "+strconv.FormatFloat(h.Score, 'g', -1, 64))
			}
			for _, h := range got {
				have = append(have, h.ID+" "+strconv.FormatFloat(h.Score, 'g', -1, 64))
			}
			assert.Equal(t, want, have, "%q, size %d", q, size)
			for i := 1; i < len(got); i++ {
				ties += btoi(got[i].Score == got[i-1].Score)
			}
			release()
		}
	}
	assert.Positive(t, ties, "no two hits scored the same: the order of ties went untested")
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
