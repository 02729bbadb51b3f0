package kb

import (
	"sort"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// rankAll is rank as first written: every article built, then sorted.
func rankAll(chunks []*storedChunk, scores []float64, topK int) []contracts.Article {
	byID := map[string]*contracts.Article{}
	for i, c := range chunks {
		if c == nil {
			continue
		}
		art, ok := byID[c.kbID]
		if !ok {
			art = &contracts.Article{KBID: c.kbID, Title: c.title, URL: c.url, Tags: splitTags(c.tags)}
			byID[c.kbID] = art
		}
		art.Chunks = append(art.Chunks, contracts.Chunk{ID: c.chunkID, Heading: c.heading, Text: c.text, Score: scores[i], HasCode: c.hasCode})
	}
	articles := []contracts.Article{}
	for _, art := range byID {
		sort.SliceStable(art.Chunks, func(i, j int) bool { return art.Chunks[i].Score > art.Chunks[j].Score })
		art.Chunks = art.Chunks[:min(len(art.Chunks), chunksPerArticle)]
		art.Score = art.Chunks[0].Score
		articles = append(articles, *art)
	}
	sort.Slice(articles, func(i, j int) bool {
		a, b := articles[i], articles[j]
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		return a.KBID < b.KBID
	})
	return articles[:min(len(articles), topK)]
}

// TestRankBuildsOnlyWhatItReturns: ranking articles before building them
// returns what building them all did.
func TestRankBuildsOnlyWhatItReturns(t *testing.T) {
	docs, errs := LoadDir("../docs")
	require.Empty(t, errs)
	idx, err := Open(t.TempDir(), DefaultOptions())
	require.NoError(t, err)
	defer idx.Close()
	_, err = idx.Sync(append(docs, benchDocs(30)...))
	require.NoError(t, err)
	for _, q := range []string{"configure the safety guard", "guard", "фильтр безопасности", "graph node edge table", "sgrgraph"} {
		qt := idx.analyze(idx.searchable(q))
		var qs []query.Query
		for i, l := range languages {
			for _, field := range []string{l.text, l.title} {
				qs = append(qs, matchQuery(qt.tokens[i], field))
			}
		}
		for _, topK := range []int{1, 3, 5, 20, 50} {
			found, err := idx.gen.bleve.Search(bleve.NewSearchRequestOptions(bleve.NewDisjunctionQuery(qs...), topK*hitsPerArticle, 0, false))
			require.NoError(t, err)
			chunks, scores, err := idx.score(found.Hits, qt.terms)
			require.NoError(t, err)
			got, _, err := idx.rank(found.Hits, qt.terms, topK)
			require.NoError(t, err)
			assert.Equal(t, rankAll(chunks, scores, topK), got, "%q top %d", q, topK)
		}
	}
}
