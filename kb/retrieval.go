package kb

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sync"

	"github.com/rs/zerolog"
)

// RetrievalParts are the parts of a search past bleve given in Go: the
// embedder, and a reranker (nil: NewReranker of the configuration).
type RetrievalParts struct {
	// Embedder embeds chunks and queries; required with kb.embeddings
	// (agent.NewEmbedder makes the configured one).
	Embedder Embedder
	Reranker Reranker
}

// retrieval is what an Index's searches do past bleve.
type retrieval struct {
	cfg      Config
	vz       *vectorizer // nil: no vectors
	rr       Reranker    // nil: no reranking
	rerankAt string      // the reranker's host, for errors
	log      zerolog.Logger

	mu          sync.RWMutex
	vectors     *vectorSet // nil while unavailable
	unavailable string     // why there are no vectors, under fallback bm25
}

func (r *retrieval) current() (*vectorSet, string) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.vectors, r.unavailable
}

func (r *retrieval) set(vs *vectorSet, unavailable string) {
	r.mu.Lock()
	r.vectors, r.unavailable = vs, unavailable
	r.mu.Unlock()
}

func (r *retrieval) fallsBack() bool { return r.cfg.Fallback == FallbackBM25 }

// logger is ctx's logger, else the one UseRetrieval was given.
func (r *retrieval) logger(ctx context.Context) *zerolog.Logger {
	if l := zerolog.Ctx(ctx); l.GetLevel() != zerolog.Disabled {
		return l
	}
	return &r.log
}

// UseRetrieval makes the index's searches go past bleve as c says
// (docs/retrieval.md): with c.Embeddings set, chunks are embedded (those
// of changed files only, unless the model or the vectors' size changed)
// into a vector index kept in the cache directory, and a search fuses
// bleve's ranking with the vectors' (reciprocal rank fusion, c.Hybrid's
// weights); with c.Rerank set, a search's best passages are reordered by
// the reranker. Scores and retrieval confidence stay bleve's absolute
// ones in every mode: only the order of the articles changes, so
// thresholds keep their meaning (see Result).
//
// Call it once, after the first Sync; later Syncs keep the vectors in
// line. An endpoint that fails fails the call, naming the setting and the
// host, unless c.Fallback is bm25: then the failure is logged (ctx's
// logger) and searches use bleve alone, saying so in Result.Fallback.
func (idx *Index) UseRetrieval(ctx context.Context, c Config, p RetrievalParts) (VectorStats, error) {
	if !c.Embeddings.Enabled() && !c.Rerank.Enabled() {
		return VectorStats{}, errNoRetrieval
	}
	if err := c.Validate(); err != nil {
		return VectorStats{}, err
	}
	r := &retrieval{cfg: c, log: *zerolog.Ctx(ctx)}
	if c.Rerank.Enabled() {
		r.rr, r.rerankAt = p.Reranker, hostOf(c.Rerank.URL)
		if r.rr == nil {
			r.rr = NewReranker(c.Rerank)
		}
	}
	var stats VectorStats
	if c.Embeddings.Enabled() {
		if p.Embedder == nil {
			return VectorStats{}, fmt.Errorf("kb.embeddings: base_url is set and no embedder was given")
		}
		r.vz = newVectorizer(p.Embedder, c.Embeddings)
		var err error
		if stats, err = idx.refreshVectors(ctx, r); err != nil {
			return stats, err
		}
	}
	idx.ret.Store(r)
	return stats, nil
}

// refreshVectors brings r's vectors in line with the published
// generation; on failure, under fallback bm25, it logs and goes on
// without vectors.
func (idx *Index) refreshVectors(ctx context.Context, r *retrieval) (VectorStats, error) {
	stats, vs, err := idx.syncVectors(ctx, r.vz)
	if err == nil {
		r.set(vs, "")
		return stats, nil
	}
	if !r.fallsBack() {
		return stats, err
	}
	r.logger(ctx).Warn().Err(err).Str("fallback", FallbackBM25).Msg("vector index not built: searches use bleve alone (kb.fallback)")
	r.set(nil, "vector index not built: "+err.Error())
	return stats, nil
}

// syncVectors reads the vector file, embeds the chunks it lacks or holds
// from an older version of their file, and writes the new set when it
// differs.
func (idx *Index) syncVectors(ctx context.Context, vz *vectorizer) (VectorStats, *vectorSet, error) {
	var stats VectorStats
	path := filepath.Join(idx.dir, vectorsName)
	old, err := readVectors(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		stats.Rebuilt, old = err.Error(), nil
	case old.model != vz.model:
		stats.Rebuilt, old = fmt.Sprintf("embedding model %s, was %s", vz.model, old.model), nil
	case vz.dims != 0 && old.dims != vz.dims:
		stats.Rebuilt, old = fmt.Sprintf("kb.embeddings.dimensions %d, was %d", vz.dims, old.dims), nil
	}
	next := &vectorSet{model: vz.model, dims: vz.dims}
	if old != nil {
		next.dims = old.dims
	}
	// Each chunk in order, its vector reused or to be embedded (todo).
	type slot struct{ id, file string }
	var slots []slot
	var reused [][]float32
	var todo []string
	idx.mu.RLock()
	if idx.closed {
		idx.mu.RUnlock()
		return stats, nil, errClosed
	}
	gen := idx.gen
	paths := make([]string, 0, len(gen.manifest.Files))
	for p := range gen.manifest.Files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	var readErr error
	for _, p := range paths {
		fe := gen.manifest.Files[p]
		for n := range fe.Chunks {
			id := docID(p, n)
			slots = append(slots, slot{id, fe.Hash})
			if old != nil {
				if i, ok := old.index[id]; ok && old.files[i] == fe.Hash {
					reused = append(reused, old.vector(i))
					continue
				}
			}
			reused = append(reused, nil)
			c, err := gen.chunks.read(id)
			if err != nil {
				readErr = fmt.Errorf("index %s: chunk %s: %w", idx.dir, id, err)
				break
			}
			todo = append(todo, embedText(c))
		}
	}
	idx.mu.RUnlock()
	if readErr != nil {
		return stats, nil, readErr
	}
	vecs, err := vz.embed(ctx, todo, next.dims)
	if err != nil {
		return stats, nil, err
	}
	stats.Embedded = len(todo)
	stats.Reused = len(slots) - len(todo)
	k := 0
	for i, s := range slots {
		v := reused[i]
		if v == nil {
			v, k = vecs[k], k+1
		}
		if next.dims == 0 {
			next.dims = len(v)
		}
		next.add(s.id, s.file, v)
	}
	next.indexIDs()
	if old != nil {
		stats.Removed = len(old.ids) - stats.Reused
		if stats.Embedded == 0 && stats.Removed == 0 {
			return stats, old, nil
		}
	}
	if err := writeVectors(path, next); err != nil {
		return stats, nil, fmt.Errorf("kb.cache_dir %s: vector index: %w", idx.dir, err)
	}
	return stats, next, nil
}
