package kb

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestKeptChunksScoreAsBleveLocates: a generation whose chunks are kept
// scores them from their own terms; a larger one asks bleve where the
// query's terms are. Both find the same, to the last digit of every score.
func TestKeptChunksScoreAsBleveLocates(t *testing.T) {
	docs, errs := LoadDir("../docs")
	require.Empty(t, errs)
	docs = append(docs, benchDocs(40)...)
	idx, err := Open(t.TempDir(), DefaultOptions())
	require.NoError(t, err)
	defer idx.Close()
	_, err = idx.Sync(docs)
	require.NoError(t, err)
	kept := idx.gen.chunks
	require.True(t, kept.keep)
	located := newChunkStore(idx.gen.bleve, maxKeptChunks+1)
	require.False(t, located.keep)
	queries := []string{"configure the safety guard", "safety guard", "How do I configure the safety guard?",
		"Как настроить фильтр безопасности?", "фильтр безопасности", "decision table hit policy", "guard verdict retry",
		"поиск статьи по запросу", "evidence contract политика", "agent tool stream", "the и of на", "sgrgraph",
		"`guard.mode` SGRGRAPH_GUARD_MODE", "retries retrying retried", "Article 7 graph", "кошка"}
	for _, q := range queries {
		for _, topK := range []int{1, 5, 10} {
			idx.gen.chunks = kept
			want, err := idx.Search(q, topK)
			require.NoError(t, err)
			idx.gen.chunks = located
			got, err := idx.Search(q, topK)
			require.NoError(t, err)
			assert.Equal(t, want, got, "%q, top %d", q, topK)
		}
	}
	idx.gen.chunks = kept
}

// TestColdChunksAtOnce: searches that meet the same chunks for the first
// time at once find what one search alone finds.
func TestColdChunksAtOnce(t *testing.T) {
	docs, errs := LoadDir("../docs")
	require.Empty(t, errs)
	open := func() *Index {
		idx, err := Open(t.TempDir(), DefaultOptions())
		require.NoError(t, err)
		t.Cleanup(func() { idx.Close() })
		_, err = idx.Sync(docs)
		require.NoError(t, err)
		return idx
	}
	queries := []string{"configure the safety guard", "safety guard", "фильтр безопасности", "decision table"}
	alone, cold := open(), open()
	var want []Result
	for _, q := range queries {
		res, err := alone.Search(q, 5)
		require.NoError(t, err)
		want = append(want, res)
	}
	var wg sync.WaitGroup
	got := make([][]Result, 16)
	for g := range got {
		wg.Go(func() {
			for _, q := range queries {
				res, err := cold.Search(q, 5)
				assert.NoError(t, err)
				got[g] = append(got[g], res)
			}
		})
	}
	wg.Wait()
	for _, results := range got {
		assert.Equal(t, want, results)
	}
}
