package kb

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"
)

// topHits is bleve's Search of q for the best size hits by score, without
// what Search does besides that a search here does not need (stored
// fields, locations, facets, pagination): the searcher is bleve's own, so
// the hits and their scores are the same. They are ranked by score, and
// hits of equal score by their chunk's ID (byRank). Only the hits' IDs and
// scores are filled in. Call release once done with the hits: their
// memory serves the next search.
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
	rank := byRank{reader: r}
	for {
		d, err := s.Next(sctx)
		if err != nil {
			return nil, nil, err
		}
		if d == nil {
			break
		}
		if len(top) == size && rank.compare(top[size-1], d) < 0 {
			pool.Put(d)
			continue
		}
		at, _ := slices.BinarySearchFunc(top, d, rank.compare)
		top = slices.Insert(top, at, d)
		if len(top) > size {
			pool.Put(top[size])
			top = top[:size]
		}
	}
	if rank.err != nil {
		return nil, nil, rank.err
	}
	for _, d := range top {
		if _, err = rank.id(d); err != nil {
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

// byRank orders hits by score, the higher first, and hits of equal score
// by their chunk's ID. Bleve ranks equal scores in the order the index
// holds its chunks, which a build of the same files need not repeat (it
// reads them in parallel): two of HTTPX's API sections score alike for
// "cookies", and which one a search returned, and so which article the
// answer quoted, changed from one build to the next. IDs are looked up
// only for equal scores, and kept in the hit.
type byRank struct {
	reader index.IndexReader
	err    error // the first ID that could not be read
}

func (k *byRank) compare(a, b *search.DocumentMatch) int {
	if a.Score != b.Score {
		return cmp.Compare(b.Score, a.Score)
	}
	x, errA := k.id(a)
	y, errB := k.id(b)
	if err := cmp.Or(errA, errB); err != nil && k.err == nil {
		k.err = err
	}
	return strings.Compare(x, y)
}

// id is the hit's chunk ID, read from the index once.
func (k *byRank) id(d *search.DocumentMatch) (string, error) {
	if d.ID == "" {
		id, err := k.reader.ExternalID(d.IndexInternalID)
		if err != nil {
			return "", err
		}
		d.ID = id
	}
	return d.ID, nil
}
