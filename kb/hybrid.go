package kb

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// maxRerankText bounds the text of one passage sent to the reranker:
// cross-encoders read a few hundred tokens.
const maxRerankText = 2000

// SearchContext is Search, with ctx bounding the calls a search past
// bleve makes (UseRetrieval): the query's embedding and the reranking.
func (idx *Index) SearchContext(ctx context.Context, q string, topK int) (Result, error) {
	r := idx.ret.Load()
	if r == nil {
		return idx.Search(q, topK)
	}
	if strings.TrimSpace(q) == "" {
		return Result{}, fmt.Errorf("query: must not be empty")
	}
	if topK < 1 || topK > MaxTopK {
		return Result{}, fmt.Errorf("top_k: must be between 1 and %d, got %d", MaxTopK, topK)
	}
	return idx.searchPast(ctx, r, q, topK)
}

// candidate is one chunk a search past bleve ranks.
type candidate struct {
	id    string
	chunk *storedChunk
	// score is bleve's absolute score (chunkScore); for a chunk only the
	// vectors found, its lower bound: the share of the query's terms it
	// holds, without bleve's lift (0 when it holds none).
	score    float64
	lex, vec int // rank in bleve's and in the vectors' ranking, from 1; 0: not in it
}

// searchPast ranks bleve's hits and the vectors' nearest chunks together
// (reciprocal rank fusion), reranks the best, and groups them by article
// in that order. Scores and confidence are bleve's, as Search gives them.
func (idx *Index) searchPast(ctx context.Context, r *retrieval, q string, topK int) (Result, error) {
	var notes []string
	fallBack := func(what string, err error) error {
		if !r.fallsBack() || ctx.Err() != nil {
			return fmt.Errorf("search %q: %w", q, err)
		}
		r.logger(ctx).Warn().Err(err).Str("fallback", FallbackBM25).Msg(what + " failed: the search goes on without it (kb.fallback)")
		notes = append(notes, what+": "+err.Error())
		return nil
	}
	vs, unavailable := r.current()
	var qv []float32
	switch {
	case r.vz == nil:
	case vs == nil:
		notes = append(notes, unavailable)
	default:
		v, err := r.vz.embed(ctx, []string{q}, vs.dims)
		if err == nil {
			qv = v[0]
		} else if err := fallBack("query embedding", err); err != nil {
			return Result{}, err
		}
	}
	cands, conf, err := idx.candidates(q, topK, qv, vs, r.cfg.Hybrid.Candidates)
	if err != nil {
		return Result{}, fmt.Errorf("search %q: %w", q, err)
	}
	order := fuse(cands, r.cfg.Hybrid)
	if r.rr != nil && len(order) > 0 {
		reranked, err := r.rerank(ctx, q, cands, order)
		if err == nil {
			order = reranked
		} else if err := fallBack("rerank", err); err != nil {
			return Result{}, err
		}
	}
	return Result{Query: q, Articles: articlesOf(cands, order, topK), Confidence: conf, Fallback: strings.Join(notes, "; ")}, nil
}

// candidates are bleve's hits that score, best first, then the chunks
// only the vectors found (qv nil: none); the confidence is that of
// bleve's hits alone, exactly as Search computes it.
func (idx *Index) candidates(q string, topK int, qv []float32, vs *vectorSet, nearest int) ([]candidate, contracts.RetrievalConfidence, error) {
	var conf contracts.RetrievalConfidence
	idx.mu.RLock()
	defer idx.mu.RUnlock()
	if idx.closed {
		return nil, conf, errClosed
	}
	if idx.gen.bleve == nil {
		return nil, conf, nil // nothing indexed yet
	}
	qt := idx.analyze(idx.searchable(q))
	var cands []candidate
	if len(qt.terms[0]) > 0 || len(qt.terms[1]) > 0 {
		var qs []query.Query
		for i, l := range languages {
			qs = append(qs, matchQuery(qt.tokens[i], l.text), matchQuery(idx.gen.titleTokens(i, qt.tokens[i]), l.title))
		}
		hits, release, err := idx.hits(bleve.NewDisjunctionQuery(qs...), topK*hitsPerArticle)
		if err != nil {
			return nil, conf, err
		}
		chunks, scores, err := idx.score(hits, qt.terms)
		if err != nil {
			release()
			return nil, conf, err
		}
		positive := make([]float64, 0, len(hits))
		for i, hit := range hits {
			if chunks[i] != nil {
				cands = append(cands, candidate{id: hit.ID, chunk: chunks[i], score: scores[i]})
				positive = append(positive, scores[i])
			}
		}
		release()
		conf = confidence(positive, idx.opts.RelevanceThreshold, idx.opts.MeanTopK)
		slices.SortStableFunc(cands, func(a, b candidate) int { return cmp.Compare(b.score, a.score) })
		for i := range cands {
			cands[i].lex = i + 1
		}
	}
	if qv == nil || vs == nil {
		return cands, conf, nil
	}
	files := idx.gen.manifest.Files
	near := vs.nearest(qv, nearest, func(i int) bool {
		f, ok := files[chunkFile(vs.ids[i])]
		return ok && f.Hash == vs.files[i] // vectors of a file since changed are not searched
	})
	at := make(map[string]int, len(cands))
	for i, c := range cands {
		at[c.id] = i
	}
	first := len(cands)
	for rank, i := range near {
		id := vs.ids[i]
		if k, ok := at[id]; ok {
			cands[k].vec = rank + 1
			continue
		}
		c, err := idx.gen.chunks.chunk(id)
		if err != nil {
			return nil, conf, err
		}
		cands = append(cands, candidate{id: id, chunk: c, vec: rank + 1})
	}
	if first < len(cands) {
		ids := idx.gen.chunks.numbers(qt.terms) // after the chunks are kept and their terms numbered
		for k := first; k < len(cands); k++ {
			c := cands[k].chunk
			cands[k].score = chunkScore(0, qt.terms, func(lang, t int) bool {
				if c.terms != nil {
					return ids[lang][t] >= 0 && c.holds(lang, ids[lang][t])
				}
				return slices.Contains(strings.Split(c.storedTerms[lang], termSep), qt.terms[lang][t])
			})
		}
	}
	return cands, conf, nil
}

// fuse orders the candidates by weighted reciprocal rank fusion:
// Σ weight / (k + rank) over the rankings a candidate is in. Ties keep
// bleve's order, then the vectors'.
func fuse(cands []candidate, h HybridConfig) []int {
	fused := make([]float64, len(cands))
	order := make([]int, len(cands))
	for i, c := range cands {
		order[i] = i
		if c.lex > 0 {
			fused[i] += h.LexicalWeight / float64(h.K+c.lex)
		}
		if c.vec > 0 {
			fused[i] += h.VectorWeight / float64(h.K+c.vec)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(fused[b], fused[a]) })
	return order
}

// rerank reorders the first Rerank.Candidates of order by the reranker's
// scores (ties keep their order); the rest follow as they were.
func (r *retrieval) rerank(ctx context.Context, q string, cands []candidate, order []int) ([]int, error) {
	n := min(r.cfg.Rerank.Candidates, len(order))
	docs := make([]string, n)
	for k := range docs {
		docs[k] = clipText(embedText(cands[order[k]].chunk), maxRerankText)
	}
	scores, err := r.rr.Rerank(ctx, q, docs)
	if err != nil {
		return nil, err
	}
	if len(scores) != n {
		return nil, fmt.Errorf("kb.rerank.url %s: %d scores for %d passages", r.rerankAt, len(scores), n)
	}
	pos := make([]int, n)
	for k := range pos {
		pos[k] = k
	}
	slices.SortStableFunc(pos, func(a, b int) int { return cmp.Compare(scores[b], scores[a]) })
	out := make([]int, 0, len(order))
	for _, k := range pos {
		out = append(out, order[k])
	}
	return append(out, order[n:]...), nil
}

// articlesOf groups the candidates by article in the given order: an
// article comes where its first chunk does, with its first chunks; its
// score is its best chunk's, as in Search.
func articlesOf(cands []candidate, order []int, topK int) []contracts.Article {
	arts := []contracts.Article{}
	at := map[string]int{}
	for _, i := range order {
		c := cands[i].chunk
		k, ok := at[c.kbID]
		if !ok {
			k = len(arts)
			at[c.kbID] = k
			arts = append(arts, contracts.Article{KBID: c.kbID, Title: c.title, URL: c.url, Tags: splitTags(c.tags)})
		}
		a := &arts[k]
		a.Score = max(a.Score, cands[i].score)
		if len(a.Chunks) < chunksPerArticle {
			a.Chunks = append(a.Chunks, contracts.Chunk{ID: c.chunkID, Heading: c.heading, Text: c.text, Score: cands[i].score, HasCode: c.hasCode})
		}
	}
	return arts[:min(len(arts), topK)]
}

// clipText cuts s to at most n bytes, at a rune boundary.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
