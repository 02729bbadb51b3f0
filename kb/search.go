package kb

import (
	"fmt"
	"sort"
	"strconv"
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
}

// languages pairs each analyzer with the fields it indexed.
var languages = []struct{ analyzer, text, title string }{
	{en.AnalyzerName, "text_en", "title_en"},
	{ru.AnalyzerName, "text_ru", "title_ru"},
}

// Search returns up to topK articles for query, best first, each with its
// best chunks, and the retrieval confidence of the query.
func (idx *Index) Search(q string, topK int) (Result, error) {
	if strings.TrimSpace(q) == "" {
		return Result{}, fmt.Errorf("query: must not be empty")
	}
	if topK < 1 || topK > MaxTopK {
		return Result{}, fmt.Errorf("top_k: must be between 1 and %d, got %d", MaxTopK, topK)
	}
	terms := idx.queryTerms(q)
	res := Result{Query: q, Articles: []contracts.Article{}}
	if len(terms[0]) == 0 && len(terms[1]) == 0 {
		return res, nil // only stop words: nothing to look for
	}
	var qs []query.Query
	for _, l := range languages {
		for _, field := range []string{l.text, l.title} {
			m := bleve.NewMatchQuery(q)
			m.SetField(field)
			m.Analyzer = l.analyzer
			qs = append(qs, m)
		}
	}
	req := bleve.NewSearchRequestOptions(bleve.NewDisjunctionQuery(qs...), topK*hitsPerArticle, 0, false)
	req.Fields = []string{"kb_id", "chunk_id", "title", "url", "tags", "heading", "text", "has_code"}
	req.IncludeLocations = true
	found, err := idx.bleve.Search(req)
	if err != nil {
		return Result{}, fmt.Errorf("search %q: %w", q, err)
	}
	byID := map[string]*contracts.Article{}
	var scores []float64
	for _, hit := range found.Hits {
		score := chunkScore(hit, terms)
		if score <= 0 {
			continue
		}
		scores = append(scores, score)
		kbID := field(hit, "kb_id")
		art, ok := byID[kbID]
		if !ok {
			art = &contracts.Article{KBID: kbID, Title: field(hit, "title"), URL: field(hit, "url"), Tags: splitTags(field(hit, "tags"))}
			byID[kbID] = art
		}
		has, _ := strconv.ParseBool(field(hit, "has_code"))
		art.Chunks = append(art.Chunks, contracts.Chunk{ID: field(hit, "chunk_id"), Heading: field(hit, "heading"),
			Text: field(hit, "text"), Score: score, HasCode: has})
	}
	for _, art := range byID {
		sort.SliceStable(art.Chunks, func(i, j int) bool { return art.Chunks[i].Score > art.Chunks[j].Score })
		art.Chunks = art.Chunks[:min(len(art.Chunks), chunksPerArticle)]
		art.Score = art.Chunks[0].Score
		res.Articles = append(res.Articles, *art)
	}
	sort.Slice(res.Articles, func(i, j int) bool {
		a, b := res.Articles[i], res.Articles[j]
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		return a.KBID < b.KBID
	})
	res.Articles = res.Articles[:min(len(res.Articles), topK)]
	res.Confidence = Confidence(scores, idx.opts.RelevanceThreshold, idx.opts.MeanTopK)
	return res, nil
}

// queryTerms analyzes q once per language; the result is indexed like languages.
func (idx *Index) queryTerms(q string) [][]string {
	out := make([][]string, len(languages))
	for i, l := range languages {
		a := idx.bleve.Mapping().AnalyzerNamed(l.analyzer)
		seen := map[string]bool{}
		for _, tok := range a.Analyze([]byte(q)) {
			t := string(tok.Term)
			if !seen[t] {
				seen[t] = true
				out[i] = append(out[i], t)
			}
		}
	}
	return out
}

// chunkScore turns a bleve hit into an absolute score in [0,1]: the share of
// the query's terms the chunk holds (the better language), lifted by bleve's
// own ranking. See the package documentation.
func chunkScore(hit *search.DocumentMatch, terms [][]string) float64 {
	best := 0.0
	for i, l := range languages {
		if len(terms[i]) == 0 {
			continue
		}
		n := 0
		for _, t := range terms[i] {
			if len(hit.Locations[l.text][t]) > 0 || len(hit.Locations[l.title][t]) > 0 {
				n++
			}
		}
		best = max(best, float64(n)/float64(len(terms[i])))
	}
	return best * (0.5 + 0.5*hit.Score/(hit.Score+1))
}

func field(hit *search.DocumentMatch, name string) string {
	s, _ := hit.Fields[name].(string)
	return s
}

func splitTags(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}
