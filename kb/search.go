package kb

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/lang/ru"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/registry"
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
// best chunks, and the retrieval confidence of the query. A query with no
// searchable word (only stop words) finds nothing and is not relevant.
func (idx *Index) Search(q string, topK int) (Result, error) {
	if strings.TrimSpace(q) == "" {
		return Result{}, fmt.Errorf("query: must not be empty")
	}
	if topK < 1 || topK > MaxTopK {
		return Result{}, fmt.Errorf("top_k: must be between 1 and %d, got %d", MaxTopK, topK)
	}
	idx.mu.RLock()
	defer idx.mu.RUnlock()
	if idx.closed {
		return Result{}, errClosed
	}
	res := Result{Query: q, Articles: []contracts.Article{}}
	words := idx.searchable(q)
	terms := idx.queryTerms(words)
	if len(terms[0]) == 0 && len(terms[1]) == 0 || idx.gen.bleve == nil {
		return res, nil // nothing to look for, or nothing indexed yet
	}
	var qs []query.Query
	for _, l := range languages {
		for _, field := range []string{l.text, l.title} {
			m := bleve.NewMatchQuery(words)
			m.SetField(field)
			m.Analyzer = l.analyzer
			qs = append(qs, m)
		}
	}
	req := bleve.NewSearchRequestOptions(bleve.NewDisjunctionQuery(qs...), topK*hitsPerArticle, 0, false)
	req.Fields = []string{"kb_id", "chunk_id", "title", "url", "tags", "heading", "text", "has_code"}
	req.IncludeLocations = true
	found, err := idx.gen.bleve.Search(req)
	if err != nil {
		return Result{}, fmt.Errorf("search %q: %w", q, err)
	}
	res.Articles, res.Confidence = idx.rank(found.Hits, terms, topK)
	return res, nil
}

// rank groups chunk hits by article, best first, and computes the
// confidence from their absolute scores.
func (idx *Index) rank(hits search.DocumentMatchCollection, terms [][]string, topK int) ([]contracts.Article, contracts.RetrievalConfidence) {
	byID := map[string]*contracts.Article{}
	var scores []float64
	for _, hit := range hits {
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
	return articles[:min(len(articles), topK)], Confidence(scores, idx.opts.RelevanceThreshold, idx.opts.MeanTopK)
}

// searchableWords is the analyzer that finds a query's searchable words:
// every word that is a stop word in none of the indexed languages. Each
// language's analyzer drops only its own stop words, so without this "the"
// would be searched through the Russian analyzer, and "и" through the
// English one, and match nearly every chunk.
func searchableWords() (analysis.Analyzer, error) {
	cache := registry.NewCache()
	tok, err := cache.TokenizerNamed(unicode.Name)
	if err != nil {
		return nil, err
	}
	filters := []analysis.TokenFilter{}
	for _, name := range []string{lowercase.Name, en.StopName, ru.StopName} {
		f, err := cache.TokenFilterNamed(name)
		if err != nil {
			return nil, err
		}
		filters = append(filters, f)
	}
	return &analysis.DefaultAnalyzer{Tokenizer: tok, TokenFilters: filters}, nil
}

// searchable is q without its stop words, the text actually searched.
func (idx *Index) searchable(q string) string {
	toks := idx.words.Analyze([]byte(q))
	words := make([]string, len(toks))
	for i, t := range toks {
		words[i] = string(t.Term)
	}
	return strings.Join(words, " ")
}

// queryTerms analyzes the searchable words once per language; the result is
// indexed like languages.
func (idx *Index) queryTerms(words string) [][]string {
	out := make([][]string, len(languages))
	for i, l := range languages {
		a := idx.mapping.AnalyzerNamed(l.analyzer)
		seen := map[string]bool{}
		for _, tok := range a.Analyze([]byte(words)) {
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
