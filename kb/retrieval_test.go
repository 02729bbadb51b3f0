package kb

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	openaiembed "github.com/cloudwego/eino-ext/components/embedding/openai"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/outbound"
	"github.com/sgrgraph/sgrgraph/sgrtest/retrievaltest"
)

// The corpus of the retrieval tests. The query "automobile upkeep" shares
// a word with printer only; the scripted server counts automobile as car
// and upkeep as maintenance, so its vectors put cars first, then colours.
var retrievalArticles = map[string]string{
	"printer.md": "# Printer upkeep\n\nUpkeep of the office printer: paper, toner, and an upkeep schedule for the printer.\n",
	"cars.md":    "# Car maintenance\n\nTake the car to the garage. Maintenance of a car keeps it running.\n",
	"colours.md": "# Car colours\n\nA car may be red or blue.\n",
}

const upkeepQuery = "automobile upkeep"

var retrievalSynonyms = map[string]string{"automobile": "car", "upkeep": "maintenance"}

func retrievalServer(t *testing.T, opts ...retrievaltest.Option) *retrievaltest.Server {
	t.Helper()
	s := retrievaltest.New(append([]retrievaltest.Option{retrievaltest.WithDims(256), retrievaltest.WithSynonyms(retrievalSynonyms)}, opts...)...)
	t.Cleanup(s.Close)
	return s
}

// hybridConfig fuses bleve's ranking with the vectors', the vectors
// weighing 1.5 and contributing their two nearest chunks.
func hybridConfig(s *retrievaltest.Server) Config {
	return Config{TopK: 5, RelevanceThreshold: 0.5, Fallback: FallbackNone,
		Embeddings: EmbeddingsConfig{BaseURL: s.URL, Model: "scripted", Timeout: 5 * time.Second, Batch: 2, Retry: outbound.Policy{Attempts: 1}},
		Hybrid:     HybridConfig{LexicalWeight: 1, VectorWeight: 1.5, K: 60, Candidates: 2}}
}

// scriptedParts are the parts a production build wires (agent.NewEmbedder):
// eino-ext's OpenAI-compatible embedder over an outbound client.
func scriptedParts(t *testing.T, c Config) RetrievalParts {
	t.Helper()
	client := outbound.Client("embeddings", c.Embeddings.Retry, nil, outbound.Timeouts{Call: c.Embeddings.Timeout})
	e, err := openaiembed.NewEmbedder(context.Background(), &openaiembed.EmbeddingConfig{BaseURL: c.Embeddings.BaseURL, Model: c.Embeddings.Model, HTTPClient: client})
	require.NoError(t, err)
	return RetrievalParts{Embedder: EmbedFunc(func(ctx context.Context, texts []string) ([][]float64, error) { return e.EmbedStrings(ctx, texts) })}
}

func rerankConfig(url, request string) RerankConfig {
	return RerankConfig{URL: url, Model: "scripted-rerank", Request: request, Candidates: 10, Timeout: 5 * time.Second, Retry: outbound.Policy{Attempts: 1}}
}

// retrievalIndex is an index of the corpus in cache (a new one when empty).
func retrievalIndex(t *testing.T, kbDir, cache string) *Index {
	t.Helper()
	docs, errs := LoadDir(kbDir)
	require.Empty(t, errs)
	if cache == "" {
		cache = t.TempDir()
	}
	idx, err := Open(cache, DefaultOptions())
	require.NoError(t, err)
	t.Cleanup(func() { idx.Close() })
	_, err = idx.Sync(docs)
	require.NoError(t, err)
	return idx
}

func kbIDs(res Result) []string {
	ids := make([]string, len(res.Articles))
	for i, a := range res.Articles {
		ids[i] = a.KBID
	}
	return ids
}

func cosine(a, b []float64) float64 {
	var dot float64
	for i := range a {
		dot += a[i] * b[i]
	}
	return dot
}

func TestHybridRankingFusesBleveWithTheVectors(t *testing.T) {
	s := retrievalServer(t)
	// What the fusion works from: bleve finds printer alone; the vectors
	// rank cars, then colours, then printer.
	text := func(name string) string { return strings.TrimPrefix(retrievalArticles[name], "# ") }
	q := s.Vector(upkeepQuery, 256)
	cars, colours, printer := cosine(q, s.Vector(text("cars.md"), 256)), cosine(q, s.Vector(text("colours.md"), 256)), cosine(q, s.Vector(text("printer.md"), 256))
	require.Greater(t, cars, colours)
	require.Greater(t, colours, printer)

	dir := t.TempDir()
	writeFiles(t, dir, retrievalArticles)
	plain := retrievalIndex(t, dir, "")
	bm25, err := plain.Search(upkeepQuery, 5)
	require.NoError(t, err)
	assert.Equal(t, []string{"printer"}, kbIDs(bm25))

	idx := retrievalIndex(t, dir, "")
	stats, err := idx.UseRetrieval(context.Background(), hybridConfig(s), scriptedParts(t, hybridConfig(s)))
	require.NoError(t, err)
	assert.Equal(t, 3, stats.Embedded)
	res, err := idx.SearchContext(context.Background(), upkeepQuery, 5)
	require.NoError(t, err)
	// cars 1.5/61, colours 1.5/62, printer 1/61 (bleve's first, not among
	// the vectors' two nearest).
	assert.Equal(t, []string{"cars", "colours", "printer"}, kbIDs(res))
	assert.Empty(t, res.Fallback)

	// Confidence is bleve's, whatever the order: the same figures, the
	// same article scores; chunks only the vectors found hold none of the
	// query's words and score 0.
	assert.Equal(t, bm25.Confidence, res.Confidence)
	assert.InDelta(t, bm25.Articles[0].Score, res.Articles[2].Score, 1e-12)
	assert.Zero(t, res.Articles[0].Score)
	assert.Zero(t, res.Articles[1].Score)

	// Search without a context goes the same way.
	again, err := idx.Search(upkeepQuery, 5)
	require.NoError(t, err)
	assert.Equal(t, kbIDs(res), kbIDs(again))

	// With bleve's weight alone, the order is bleve's.
	c := hybridConfig(s)
	c.Hybrid.VectorWeight = 0
	lexical := retrievalIndex(t, dir, "")
	_, err = lexical.UseRetrieval(context.Background(), c, scriptedParts(t, c))
	require.NoError(t, err)
	res, err = lexical.Search(upkeepQuery, 5)
	require.NoError(t, err)
	assert.Equal(t, "printer", res.Articles[0].KBID)
}

func TestRerankReordersInBothRequestShapes(t *testing.T) {
	s := retrievalServer(t, retrievaltest.WithBoosts(map[string]float64{"red or blue": 5}))
	dir := t.TempDir()
	writeFiles(t, dir, retrievalArticles)
	for _, shape := range []struct{ request, url string }{{"documents", s.RerankURL}, {"texts", s.TEIRerankURL}} {
		t.Run(shape.request, func(t *testing.T) {
			c := hybridConfig(s)
			c.Rerank = rerankConfig(shape.url, shape.request)
			idx := retrievalIndex(t, dir, "")
			_, err := idx.UseRetrieval(context.Background(), c, scriptedParts(t, c))
			require.NoError(t, err)
			res, err := idx.SearchContext(context.Background(), upkeepQuery, 5)
			require.NoError(t, err)
			// The boost puts colours first; cars holds both of the query's
			// words (as the server counts them), printer one.
			assert.Equal(t, []string{"colours", "cars", "printer"}, kbIDs(res))
			calls := s.Calls()
			last := calls[len(calls)-1]
			assert.Equal(t, upkeepQuery, last.Query)
			assert.Len(t, last.Texts, 3)
		})
	}

	// Reranking bleve's ranking alone, without embeddings: the confidence
	// stays bleve's.
	c := Config{TopK: 5, RelevanceThreshold: 0.5, Fallback: FallbackNone, Rerank: rerankConfig(s.RerankURL, "documents")}
	idx := retrievalIndex(t, dir, "")
	stats, err := idx.UseRetrieval(context.Background(), c, RetrievalParts{})
	require.NoError(t, err)
	assert.Zero(t, stats)
	res, err := idx.SearchContext(context.Background(), "printer paper or car", 5)
	require.NoError(t, err)
	plain := retrievalIndex(t, dir, "")
	bm25, err := plain.Search("printer paper or car", 5)
	require.NoError(t, err)
	assert.Equal(t, bm25.Confidence, res.Confidence)
	assert.ElementsMatch(t, kbIDs(bm25), kbIDs(res))
	scores := map[string]float64{}
	for _, a := range bm25.Articles {
		scores[a.KBID] = a.Score
	}
	for _, a := range res.Articles {
		assert.InDelta(t, scores[a.KBID], a.Score, 1e-12, a.KBID)
	}
	assert.Equal(t, "colours", res.Articles[0].KBID, "the boost reorders bleve's hits")
	assert.NotEqual(t, "colours", bm25.Articles[0].KBID)
}

func TestVectorIndexIsReusedAndRebuiltWhenItShould(t *testing.T) {
	s := retrievalServer(t)
	dir, cache := t.TempDir(), t.TempDir()
	writeFiles(t, dir, retrievalArticles)
	ctx := context.Background()

	stats, err := retrievalIndex(t, dir, cache).UseRetrieval(ctx, hybridConfig(s), scriptedParts(t, hybridConfig(s)))
	require.NoError(t, err)
	assert.Equal(t, VectorStats{Embedded: 3}, stats)

	// Another process on the same cache embeds nothing.
	before := s.Embedded()
	stats, err = retrievalIndex(t, dir, cache).UseRetrieval(ctx, hybridConfig(s), scriptedParts(t, hybridConfig(s)))
	require.NoError(t, err)
	assert.Equal(t, VectorStats{Reused: 3}, stats)
	assert.Equal(t, before, s.Embedded())

	// A changed article is embedded again, a removed one dropped, through
	// Sync on an index already searching with vectors.
	idx := retrievalIndex(t, dir, cache)
	_, err = idx.UseRetrieval(ctx, hybridConfig(s), scriptedParts(t, hybridConfig(s)))
	require.NoError(t, err)
	writeFiles(t, dir, map[string]string{"cars.md": "# Car maintenance\n\nAn automobile needs upkeep twice a year.\n"})
	require.NoError(t, removeFile(dir, "colours.md"))
	docs, errs := LoadDir(dir)
	require.Empty(t, errs)
	before = s.Embedded()
	_, err = idx.Sync(docs)
	require.NoError(t, err)
	assert.Equal(t, before+1, s.Embedded(), "only the changed article's chunk")
	res, err := idx.Search(upkeepQuery, 5)
	require.NoError(t, err)
	assert.Equal(t, []string{"cars", "printer"}, kbIDs(res))

	// Another model, or another size, embeds everything again.
	c := hybridConfig(s)
	c.Embeddings.Model = "scripted-2"
	stats, err = retrievalIndex(t, dir, cache).UseRetrieval(ctx, c, scriptedParts(t, c))
	require.NoError(t, err)
	assert.Equal(t, 2, stats.Embedded)
	assert.Contains(t, stats.Rebuilt, "embedding model scripted-2, was scripted")
	wider := retrievalServer(t, retrievaltest.WithDims(128))
	c = hybridConfig(wider)
	c.Embeddings.Model, c.Embeddings.Dimensions = "scripted-2", 128
	stats, err = retrievalIndex(t, dir, cache).UseRetrieval(ctx, c, scriptedParts(t, c))
	require.NoError(t, err)
	assert.Equal(t, 2, stats.Embedded)
	assert.Contains(t, stats.Rebuilt, "kb.embeddings.dimensions 128, was 256")

	// A damaged file is rebuilt, not misread.
	require.NoError(t, writeRaw(cache, vectorsName, "sgrgraph-vectors 1\n{\"model\":\"scripted-2\",\"dims\":128,\"text\":1,\"count\":5}\n"))
	stats, err = retrievalIndex(t, dir, cache).UseRetrieval(ctx, c, scriptedParts(t, c))
	require.NoError(t, err)
	assert.Equal(t, 2, stats.Embedded)
	assert.NotEmpty(t, stats.Rebuilt)
}

func TestFailingEndpointsAreReportedOrFallBackWhenConfigured(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, retrievalArticles)
	ctx := context.Background()
	down := retrievaltest.New()
	down.Close()
	faulty := func(f retrievaltest.Fault) *retrievaltest.Server {
		return retrievalServer(t, retrievaltest.WithFaults(func(retrievaltest.Call) retrievaltest.Fault { return f }))
	}
	host := func(s *retrievaltest.Server) string { return strings.TrimSuffix(s.URL, "/v1") }
	for _, tc := range []struct {
		name   string
		server *retrievaltest.Server
		want   string
	}{
		{"down", down, "connect"},
		{"timeout", faulty(retrievaltest.Fault{Delay: 3 * time.Second}), "no answer within kb.embeddings.timeout 1s"},
		{"server error", faulty(retrievaltest.Fault{Status: 500}), "500"},
		{"bad JSON", faulty(retrievaltest.Fault{BadJSON: true}), "invalid character"},
		{"a vector short", faulty(retrievaltest.Fault{Fewer: true}), "answered 1 vectors for 2 texts"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := hybridConfig(tc.server)
			c.Embeddings.Timeout = time.Second
			_, err := retrievalIndex(t, dir, "").UseRetrieval(ctx, c, scriptedParts(t, c))
			require.Error(t, err)
			assert.Contains(t, err.Error(), "kb.embeddings.base_url "+host(tc.server))
			assert.Contains(t, err.Error(), tc.want)

			// Under fallback bm25: bleve alone, and the result says why.
			c.Fallback = FallbackBM25
			idx := retrievalIndex(t, dir, "")
			_, err = idx.UseRetrieval(ctx, c, scriptedParts(t, c))
			require.NoError(t, err)
			res, err := idx.SearchContext(ctx, upkeepQuery, 5)
			require.NoError(t, err)
			assert.Equal(t, []string{"printer"}, kbIDs(res))
			assert.Contains(t, res.Fallback, "vector index not built")
			assert.Contains(t, res.Fallback, tc.want)
		})
	}

	// The query's embedding failing at search time.
	var failQueries bool
	s := retrievalServer(t, retrievaltest.WithFaults(func(c retrievaltest.Call) retrievaltest.Fault {
		if failQueries && len(c.Texts) == 1 && c.Texts[0] == upkeepQuery {
			return retrievaltest.Fault{Status: 503}
		}
		return retrievaltest.Fault{}
	}))
	idx := retrievalIndex(t, dir, "")
	_, err := idx.UseRetrieval(ctx, hybridConfig(s), scriptedParts(t, hybridConfig(s)))
	require.NoError(t, err)
	failQueries = true
	_, err = idx.SearchContext(ctx, upkeepQuery, 5)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "kb.embeddings.base_url "+host(s))
	assert.Contains(t, err.Error(), "503")

	// A rerank endpoint that fails, answers bad JSON or scores too few.
	for _, f := range []struct {
		fault retrievaltest.Fault
		want  string
	}{{retrievaltest.Fault{Status: 500}, "500 Internal Server Error"}, {retrievaltest.Fault{BadJSON: true}, "not a rerank answer"},
		{retrievaltest.Fault{Fewer: true}, "answer scores 2 documents of 3"},
		{retrievaltest.Fault{Delay: 3 * time.Second}, "no answer within kb.rerank.timeout 1s"}} {
		r := faulty(f.fault)
		c := hybridConfig(retrievalServer(t))
		c.Rerank = rerankConfig(r.RerankURL, "documents")
		c.Rerank.Timeout = time.Second
		idx := retrievalIndex(t, dir, "")
		_, err := idx.UseRetrieval(ctx, c, scriptedParts(t, c))
		require.NoError(t, err)
		_, err = idx.SearchContext(ctx, upkeepQuery, 5)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "kb.rerank.url "+host(r))
		assert.Contains(t, err.Error(), f.want)
		c.Fallback = FallbackBM25
		idx = retrievalIndex(t, dir, "")
		_, err = idx.UseRetrieval(ctx, c, scriptedParts(t, c))
		require.NoError(t, err)
		res, err := idx.SearchContext(ctx, upkeepQuery, 5)
		require.NoError(t, err)
		assert.Equal(t, []string{"cars", "colours", "printer"}, kbIDs(res), "the fused order, not reranked")
		assert.Contains(t, res.Fallback, "rerank: kb.rerank.url")
	}
}

func TestDimensionMismatchIsAnError(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, retrievalArticles)
	s := retrievalServer(t)
	c := hybridConfig(s)
	c.Embeddings.Dimensions = 384
	_, err := retrievalIndex(t, dir, "").UseRetrieval(context.Background(), c, scriptedParts(t, c))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "kb.embeddings.dimensions: model scripted at "+strings.TrimSuffix(s.URL, "/v1")+" answered a vector of 256 dimensions, 384 expected")

	// The server changes its vectors' size under the same model's name:
	// a query's vector no longer fits the index.
	var wide bool
	s = retrievalServer(t, retrievaltest.WithFaults(func(retrievaltest.Call) retrievaltest.Fault {
		if wide {
			return retrievaltest.Fault{Dims: 64}
		}
		return retrievaltest.Fault{}
	}))
	idx := retrievalIndex(t, dir, "")
	_, err = idx.UseRetrieval(context.Background(), hybridConfig(s), scriptedParts(t, hybridConfig(s)))
	require.NoError(t, err)
	wide = true
	_, err = idx.SearchContext(context.Background(), upkeepQuery, 5)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "answered a vector of 64 dimensions, 256 expected")
}

func TestRetrievalConfigErrorsNameTheField(t *testing.T) {
	base := Config{TopK: 5, RelevanceThreshold: 0.5}
	require.NoError(t, base.Validate(), "all off")
	c := base
	c.Embeddings = EmbeddingsConfig{BaseURL: "localhost:11434", Dimensions: -1, Timeout: time.Millisecond, Batch: 0, Retry: outbound.Policy{Attempts: 0}}
	c.Hybrid = HybridConfig{LexicalWeight: 0, VectorWeight: 0, K: 0, Candidates: 5000}
	c.Rerank = RerankConfig{URL: "http://tei:8080/rerank", Request: "queries", Candidates: 0, Timeout: time.Hour, Retry: outbound.DefaultPolicy()}
	c.Fallback = "quietly"
	err := c.Validate()
	require.Error(t, err)
	for _, want := range []string{
		`embeddings.base_url: "localhost:11434" is not an http(s) URL with a host`,
		"embeddings.model: required when embeddings.base_url is set",
		"embeddings.dimensions: -1 is outside 0..16384",
		"embeddings.timeout: 1ms is outside 1s..10m",
		"embeddings.batch: 0 is outside 1..2048",
		"embeddings.retry.attempts: 0 is outside 1..10",
		"hybrid.vector_weight: lexical_weight and vector_weight are both 0",
		"hybrid.rrf_k: 0 is outside 1..1000",
		"hybrid.candidates: 5000 is outside 1..1000",
		`rerank.request: "queries" is not documents or texts`,
		"rerank.candidates: 0 is outside 1..100",
		"rerank.timeout: 1h0m0s is outside 1s..5m",
		`fallback: "quietly" is not none or bm25`,
	} {
		assert.Contains(t, err.Error(), want)
	}
	idx, err := Open(t.TempDir(), DefaultOptions())
	require.NoError(t, err)
	defer idx.Close()
	_, err = idx.UseRetrieval(context.Background(), base, RetrievalParts{})
	assert.ErrorIs(t, err, errNoRetrieval)
	c2 := base
	c2.Embeddings = EmbeddingsConfig{BaseURL: "http://e/v1", Model: "m", Timeout: time.Second, Batch: 1, Retry: outbound.DefaultPolicy()}
	c2.Hybrid = HybridConfig{LexicalWeight: 1, VectorWeight: 1, K: 60, Candidates: 5}
	_, err = idx.UseRetrieval(context.Background(), c2, RetrievalParts{})
	assert.ErrorContains(t, err, "kb.embeddings: base_url is set and no embedder was given")
	_, err = idx.UseRetrieval(context.Background(), c, scriptedParts(t, c))
	assert.ErrorContains(t, err, "embeddings.model")
}

func TestRerankAnswersAreReadStrictly(t *testing.T) {
	for _, tc := range []struct{ answer, want string }{
		{`[{"index":1,"score":0.2},{"index":0,"score":0.9}]`, ""},
		{`{"results":[{"index":0,"relevance_score":0.9},{"index":1,"relevance_score":0.2}]}`, ""},
		{`{"results":[{"index":0,"relevance_score":0.9},{"index":0,"relevance_score":0.2}]}`, "out of range or repeated"},
		{`[{"index":0,"score":0.9},{"index":2,"score":0.2}]`, "out of range or repeated"},
		{`[{"index":0},{"index":1,"score":0.2}]`, "no index or no relevance_score/score"},
		{`{"results":[]}`, "scores 0 documents of 2"},
		{`<html>`, "not a rerank answer"},
	} {
		scores, err := rerankScores([]byte(tc.answer), 2)
		if tc.want == "" {
			require.NoError(t, err, tc.answer)
			assert.Equal(t, []float64{0.9, 0.2}, scores)
			continue
		}
		assert.ErrorContains(t, err, tc.want, tc.answer)
	}
	_, err := normalize([]float64{1, math.NaN()})
	assert.Error(t, err)
	v, err := normalize([]float64{3, 4})
	require.NoError(t, err)
	assert.Equal(t, []float32{0.6, 0.8}, v)
}

// A search only the vectors answer finds its article, and says it is not
// likely relevant: confidence counts the query's words the knowledge base
// holds, never a similarity.
func TestVectorFindsDoNotRaiseConfidence(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, retrievalArticles)
	idx := retrievalIndex(t, dir, "")
	c := hybridConfig(retrievalServer(t))
	_, err := idx.UseRetrieval(context.Background(), c, scriptedParts(t, c))
	require.NoError(t, err)
	res, err := idx.SearchContext(context.Background(), "automobile", 5)
	require.NoError(t, err)
	require.NotEmpty(t, res.Articles)
	assert.Equal(t, contracts.RetrievalConfidence{}, res.Confidence)
	assert.False(t, res.Confidence.LikelyRelevant)
}

func removeFile(dir, name string) error { return os.Remove(filepath.Join(dir, name)) }

func writeRaw(dir, name, data string) error {
	return os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644)
}
