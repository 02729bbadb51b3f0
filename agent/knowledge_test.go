package agent_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/docs"
	"github.com/sgrgraph/sgrgraph/kb"
	"github.com/sgrgraph/sgrgraph/outbound"
	"github.com/sgrgraph/sgrgraph/sgrtest/retrievaltest"
)

// The embedded articles are read once a process, and each knowledge base
// opened gets them as if it had read them itself: all of them, and a list
// of its own, which another one's changes do not reach.
func TestEmbeddedArticlesAreEachKnowledgeBasesOwn(t *testing.T) {
	want, errs := kb.LoadFS(docs.FS, ".")
	require.Empty(t, errs)
	c := kb.Config{CacheDir: t.TempDir(), TopK: 5, RelevanceThreshold: 0.5}
	first, err := agent.OpenKnowledge(context.Background(), c)
	require.NoError(t, err)
	defer first.Close()
	assert.Equal(t, want, first.Docs)
	first.Docs[0].Title, first.Docs[0].Tags[0] = "changed", "changed"
	second, err := agent.OpenKnowledge(context.Background(), c)
	require.NoError(t, err)
	defer second.Close()
	assert.Equal(t, want, second.Docs)
	assert.Equal(t, "embedded", second.Source)
}

// A knowledge base configured with embeddings and a reranker searches
// with them, from start-up; one whose embeddings endpoint is down does not
// start, and says which setting and host failed.
func TestKnowledgeSearchesPastBleveWhenConfigured(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"printer.md": "# Printer upkeep\n\nUpkeep of the office printer: paper, toner, and an upkeep schedule.\n",
		"cars.md":    "# Car maintenance\n\nTake the car to the garage. Maintenance of a car keeps it running.\n",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
	}
	s := retrievaltest.New(retrievaltest.WithSynonyms(map[string]string{"automobile": "car", "upkeep": "maintenance"}))
	defer s.Close()
	c := kb.Config{Dir: dir, CacheDir: t.TempDir(), TopK: 5, RelevanceThreshold: 0.5, Fallback: kb.FallbackNone,
		Embeddings: kb.EmbeddingsConfig{BaseURL: s.URL, Model: "scripted", Timeout: 5 * time.Second, Batch: 8, Retry: outbound.Policy{Attempts: 1}},
		Hybrid:     kb.HybridConfig{LexicalWeight: 1, VectorWeight: 1, K: 60, Candidates: 10}}
	k, err := agent.OpenKnowledge(context.Background(), c)
	require.NoError(t, err)
	defer k.Close()
	assert.Equal(t, kb.VectorStats{Embedded: 2}, k.Vectors)
	res, err := k.Index.SearchContext(context.Background(), "automobile upkeep", 5)
	require.NoError(t, err)
	require.Len(t, res.Articles, 2, "bleve alone finds printer only")
	assert.Equal(t, "printer", res.Articles[0].KBID)
	assert.Equal(t, "cars", res.Articles[1].KBID)

	c.Rerank = kb.RerankConfig{URL: s.RerankURL, Request: "documents", Candidates: 5, Timeout: 5 * time.Second, Retry: outbound.Policy{Attempts: 1}}
	reranked, err := agent.OpenKnowledge(context.Background(), c)
	require.NoError(t, err)
	defer reranked.Close()
	res, err = reranked.Index.SearchContext(context.Background(), "automobile upkeep", 5)
	require.NoError(t, err)
	assert.Equal(t, "cars", res.Articles[0].KBID, "cars holds both words as the reranker counts them")

	s.Close()
	c.CacheDir = t.TempDir()
	_, err = agent.OpenKnowledge(context.Background(), c)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "kb.embeddings.base_url "+s.URL[:len(s.URL)-len("/v1")])
}
