package kb

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/lang/ru"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// MaxTopK is the largest number of articles one search may return.
const MaxTopK = 50

// chunksPerArticle is how many of an article's best chunks a result carries.
const chunksPerArticle = 3

// hitsPerArticle bounds how many chunk hits are scored per requested article.
const hitsPerArticle = 10

// Result is what one search found.
type Result struct {
	Query      string                        `json:"query"`
	Articles   []contracts.Article           `json:"articles"`
	Confidence contracts.RetrievalConfidence `json:"confidence"`
	// Fallback names what a search past bleve went without (an endpoint
	// that failed, under kb.fallback bm25); empty when nothing failed.
	Fallback string `json:"fallback,omitempty"`
}

// languages pairs each analyzer with the fields it indexed, and the
// stored field that lists the terms it found in them (chunkTerms).
var languages = []struct{ analyzer, text, title, terms string }{
	{en.AnalyzerName, "text_en", "title_en", "terms_en"},
	{ru.AnalyzerName, "text_ru", "title_ru", "terms_ru"},
}

// Search returns up to topK articles for query, best first, each with its
// best chunks, and the retrieval confidence of the query. A query with no
// searchable word (only stop words) finds nothing and is not relevant.
// Once UseRetrieval is set, the search goes past bleve as it says, with no
// deadline but the configured timeouts; SearchContext takes a context.
func (idx *Index) Search(q string, topK int) (Result, error) {
	if strings.TrimSpace(q) == "" {
		return Result{}, fmt.Errorf("query: must not be empty")
	}
	if topK < 1 || topK > MaxTopK {
		return Result{}, fmt.Errorf("top_k: must be between 1 and %d, got %d", MaxTopK, topK)
	}
	if r := idx.ret.Load(); r != nil {
		return idx.searchPast(context.Background(), r, q, topK)
	}
	idx.mu.RLock()
	defer idx.mu.RUnlock()
	if idx.closed {
		return Result{}, errClosed
	}
	res := Result{Query: q, Articles: []contracts.Article{}}
	qt := idx.analyze(idx.searchable(q))
	if len(qt.terms[0]) == 0 && len(qt.terms[1]) == 0 || idx.gen.bleve == nil {
		return res, nil // nothing to look for, or nothing indexed yet
	}
	var qs []query.Query
	for i, l := range languages {
		qs = append(qs, matchQuery(qt.tokens[i], l.text), matchQuery(idx.gen.titleTokens(i, qt.tokens[i]), l.title))
	}
	// The stored fields come from the generation's chunk store, not with
	// each hit; where it keeps its chunks, so do the terms each chunk
	// holds, and bleve need only find and score the hits.
	hits, release, err := idx.hits(bleve.NewDisjunctionQuery(qs...), topK*hitsPerArticle)
	if err == nil {
		res.Articles, res.Confidence, err = idx.rank(hits, qt.terms, topK)
		release()
	}
	if err != nil {
		return Result{}, fmt.Errorf("search %q: %w", q, err)
	}
	return res, nil
}

// hits are the best size hits of q: with where their terms are, unless
// the generation's chunks are kept with their terms. Call release once
// done with them.
func (idx *Index) hits(q query.Query, size int) (hits search.DocumentMatchCollection, release func(), err error) {
	if idx.gen.chunks.keep {
		return idx.gen.topHits(q, size)
	}
	req := bleve.NewSearchRequestOptions(q, size, 0, false)
	req.SortBy([]string{"-_score", "_id"}) // equal scores by chunk ID, as topHits ranks them
	req.IncludeLocations = true
	found, err := idx.gen.bleve.Search(req)
	if err != nil {
		return nil, nil, err
	}
	return found.Hits, func() {}, nil
}

// rank groups chunk hits by article, best first, and computes the
// confidence from their absolute scores.
func (idx *Index) rank(hits search.DocumentMatchCollection, terms [][]string, topK int) ([]contracts.Article, contracts.RetrievalConfidence, error) {
	chunks, scores, err := idx.score(hits, terms)
	if err != nil {
		return nil, contracts.RetrievalConfidence{}, err
	}
	// An article's score is its best chunk's, so the articles are ranked
	// before any is built: only the topK returned are.
	found := groupHits(chunks, scores)
	// kb_id breaks ties and no two articles share one: the order is total.
	slices.SortFunc(found, func(a, b hitGroup) int {
		if a.score != b.score {
			return cmp.Compare(b.score, a.score)
		}
		return strings.Compare(a.kbID, b.kbID)
	})
	articles := make([]contracts.Article, min(len(found), topK))
	for n := range articles {
		a, first := found[n], chunks[found[n].hits[0]]
		art := contracts.Article{KBID: a.kbID, Title: first.title, URL: first.url, Tags: splitTags(first.tags)}
		art.Chunks = bestChunks(chunks, scores, a.hits)
		art.Score = art.Chunks[0].Score
		articles[n] = art
	}
	positive := make([]float64, 0, len(chunks))
	for i, c := range chunks {
		if c != nil {
			positive = append(positive, scores[i])
		}
	}
	return articles, confidence(positive, idx.opts.RelevanceThreshold, idx.opts.MeanTopK), nil
}

// hitGroup is the hits of one article: their places in the hits, in the
// order bleve ranked them, and the best chunk's score.
type hitGroup struct {
	kbID  string
	hits  []int
	score float64
}

// groupHits groups the hits that scored (chunks not nil) by article, in
// the order of their kb_id: sorting their places by kb_id, rather than
// keeping a map from kb_id, gives the groups, each in hit order as the
// sort is stable.
func groupHits(chunks []*storedChunk, scores []float64) (found []hitGroup) {
	byArticle := make([]int, 0, len(chunks))
	for i, c := range chunks {
		if c != nil {
			byArticle = append(byArticle, i)
		}
	}
	slices.SortStableFunc(byArticle, func(i, j int) int { return strings.Compare(chunks[i].kbID, chunks[j].kbID) })
	found = make([]hitGroup, 0, len(byArticle))
	for start := 0; start < len(byArticle); {
		id := chunks[byArticle[start]].kbID
		end := start + 1
		for end < len(byArticle) && chunks[byArticle[end]].kbID == id {
			end++
		}
		g := hitGroup{kbID: id, hits: byArticle[start:end:end]}
		for _, i := range g.hits {
			g.score = max(g.score, scores[i])
		}
		found = append(found, g)
		start = end
	}
	return found
}

// bestChunks are the chunksPerArticle best of an article's hits, best
// first, those of equal score in hit order: what a stable sort by score
// would put first, without building the ones it would drop.
func bestChunks(chunks []*storedChunk, scores []float64, hits []int) []contracts.Chunk {
	best := make([]contracts.Chunk, 0, min(len(hits), chunksPerArticle))
	for _, i := range hits {
		at := len(best)
		for at > 0 && best[at-1].Score < scores[i] {
			at--
		}
		if at == chunksPerArticle {
			continue
		}
		if len(best) < chunksPerArticle {
			best = append(best, contracts.Chunk{})
		}
		copy(best[at+1:], best[at:len(best)-1])
		c := chunks[i]
		best[at] = contracts.Chunk{ID: c.chunkID, Heading: c.heading, Text: c.text, Score: scores[i], HasCode: c.hasCode}
	}
	return best
}

// score reads the chunk of every hit that scores above zero, with its
// score; the chunk of a hit that does not is nil.
func (idx *Index) score(hits search.DocumentMatchCollection, terms [][]string) ([]*storedChunk, []float64, error) {
	store := idx.gen.chunks
	chunks, scores := make([]*storedChunk, len(hits)), make([]float64, len(hits))
	if store.keep {
		// Every hit is read first: a chunk's terms are numbered as it is
		// kept, and the query's terms are looked up once all are.
		for i, hit := range hits {
			c, err := store.chunk(hit.ID)
			if err != nil {
				return nil, nil, err
			}
			chunks[i] = c
		}
		ids := store.numbers(terms)
		for i, hit := range hits {
			c := chunks[i]
			scores[i] = chunkScore(hit.Score, terms, func(lang, k int) bool { return c.holds(lang, ids[lang][k]) })
		}
	} else {
		for i, hit := range hits {
			scores[i] = chunkScore(hit.Score, terms, func(lang, k int) bool {
				l, t := languages[lang], terms[lang][k]
				return len(hit.Locations[l.text][t]) > 0 || len(hit.Locations[l.title][t]) > 0
			})
		}
	}
	for i, hit := range hits {
		if scores[i] <= 0 {
			chunks[i] = nil
			continue
		}
		if chunks[i] == nil {
			c, err := store.chunk(hit.ID)
			if err != nil {
				return nil, nil, err
			}
			chunks[i] = c
		}
	}
	return chunks, scores, nil
}

// chunkScore turns a bleve hit's raw score into an absolute score in
// [0,1]: the share of the query's terms the chunk holds (the better
// language), lifted by bleve's own ranking. See the package documentation.
func chunkScore(raw float64, terms [][]string, holds func(lang, k int) bool) float64 {
	best := 0.0
	for i := range languages {
		if len(terms[i]) == 0 {
			continue
		}
		n := 0
		for k := range terms[i] {
			if holds(i, k) {
				n++
			}
		}
		best = max(best, float64(n)/float64(len(terms[i])))
	}
	return best * (0.5 + 0.5*raw/(raw+1))
}

func splitTags(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}
