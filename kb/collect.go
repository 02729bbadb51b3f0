package kb

import (
	"context"
	"slices"

	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
)

// topHits is bleve's Search of q for the best size hits by score, without
// what Search does besides that a search here does not need (stored
// fields, locations, facets, pagination): the searcher is bleve's own, so
// the hits and their scores are the same, and they are ranked as bleve's
// top-N collector ranks them, by score, the hit found first before an
// equal one. Only the hits' IDs and scores are filled in. Call release
// once done with the hits: their memory serves the next search.
func (g generation) topHits(q query.Query, size int) (hits []*search.DocumentMatch, release func(), err error) {
	idx, err := g.bleve.Advanced()
	if err != nil {
		return nil, nil, err
	}
	r, err := idx.Reader()
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	s, err := q.Searcher(context.Background(), r, g.bleve.Mapping(), search.SearcherOptions{})
	if err != nil {
		return nil, nil, err
	}
	defer s.Close()
	// Matches are taken from a pool as the searcher needs them, and a hit
	// that ranks outside the best size goes back at once. The pool is an
	// earlier search's: a match is some hundred bytes, and a search scores
	// many.
	pool, _ := g.chunks.matches.Get().(*search.DocumentMatchPool)
	if pool == nil {
		pool = search.NewDocumentMatchPool(s.DocumentMatchPoolSize()+1, 0)
	}
	sctx := &search.SearchContext{DocumentMatchPool: pool, IndexReader: r}
	top := make([]*search.DocumentMatch, 0, size+1)
	for n := uint64(1); ; n++ {
		d, err := s.Next(sctx)
		if err != nil {
			return nil, nil, err
		}
		if d == nil {
			break
		}
		d.HitNumber = n
		if len(top) == size && ranksBefore(top[size-1], d) {
			pool.Put(d)
			continue
		}
		at, _ := slices.BinarySearchFunc(top, d, byRank)
		top = slices.Insert(top, at, d)
		if len(top) > size {
			pool.Put(top[size])
			top = top[:size]
		}
	}
	for _, d := range top {
		if d.ID, err = r.ExternalID(d.IndexInternalID); err != nil {
			return nil, nil, err
		}
	}
	release = func() {
		for _, d := range top {
			pool.Put(d)
		}
		g.chunks.matches.Put(pool)
	}
	return top, release, nil
}

// byRank orders hits as bleve's score sort does: higher score first, then
// the one found first.
func byRank(a, b *search.DocumentMatch) int {
	switch {
	case a.Score != b.Score && a.Score > b.Score:
		return -1
	case a.Score != b.Score:
		return 1
	case a.HitNumber < b.HitNumber:
		return -1
	case a.HitNumber > b.HitNumber:
		return 1
	}
	return 0
}

func ranksBefore(a, b *search.DocumentMatch) bool { return byRank(a, b) < 0 }
