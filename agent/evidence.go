package agent

import (
	"context"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/kb"
	"github.com/sgrgraph/sgrgraph/tools"
)

// compressed is s with each search's found articles cut to tokens
// (agent.evidence_tokens) before the agent sees them; s itself when
// tokens is 0.
func compressed(s tools.Searcher, tokens int) tools.Searcher {
	if tokens <= 0 {
		return s
	}
	return compressingSearcher{inner: s, tokens: tokens}
}

type compressingSearcher struct {
	inner  tools.Searcher
	tokens int
}

func (c compressingSearcher) Search(query string, topK int) (kb.Result, error) {
	return c.SearchContext(context.Background(), query, topK)
}

func (c compressingSearcher) SearchContext(ctx context.Context, query string, topK int) (kb.Result, error) {
	var res kb.Result
	var err error
	if cs, ok := c.inner.(tools.ContextSearcher); ok {
		res, err = cs.SearchContext(ctx, query, topK)
	} else {
		res, err = c.inner.Search(query, topK)
	}
	if err != nil {
		return res, err
	}
	return Compress(res, c.tokens), nil
}

// Compress cuts a search's found articles to about tokens (estimated as
// the conversation's history is, a token for three characters), keeping
// the passages that answer the query. A result within the budget is
// returned as it is. Otherwise the budget is shared among the articles by
// their rank, the first found getting the most (the share of the article
// ranked r is proportional to 1/r, and what one leaves unused goes to
// those after it); each keeps the passages (paragraphs, list blocks,
// tables, code blocks, each whole) that hold the most of the query's words
// for their length, in their order, with the chunk's heading. Every
// article keeps at least its best passage, so no article a search found
// disappears from what the agent sees and cites. The result's confidence
// is the search's, unchanged: it is the retrieval's, not the text's.
func Compress(res kb.Result, tokens int) kb.Result {
	if tokens <= 0 || resultTokens(res) <= tokens {
		return res
	}
	terms := queryTerms(res.Query)
	out := res
	out.Articles = make([]contracts.Article, len(res.Articles))
	weights := make([]float64, len(res.Articles))
	left := 0.0
	for i := range weights {
		weights[i] = 1 / float64(i+1)
		left += weights[i]
	}
	budget := tokens
	for i, a := range res.Articles {
		share := int(float64(budget) * weights[i] / left)
		left -= weights[i]
		kept, used := compressArticle(a, terms, share)
		out.Articles[i] = kept
		budget = max(0, budget-used)
	}
	return out
}

// resultTokens is the estimated size of the articles' chunks.
func resultTokens(res kb.Result) int {
	n := 0
	for _, a := range res.Articles {
		for _, c := range a.Chunks {
			n += estimateTokens(c.Text)
		}
	}
	return n
}

// passage is one block of a chunk's text.
type passage struct {
	chunk, order int
	text         string
	heading      bool // the chunk's heading, kept with any passage of its chunk
	tokens       int
	score        float64
}

// compressArticle keeps the passages of a that answer best within
// tokens, at least its best one, and says how many tokens it kept.
func compressArticle(a contracts.Article, terms map[string]bool, tokens int) (contracts.Article, int) {
	var ps []passage
	for ci, c := range a.Chunks {
		for _, b := range blocks(c.Text) {
			heading := strings.HasPrefix(b, "#") || b == strings.TrimSpace(c.Heading)
			ps = append(ps, passage{chunk: ci, order: len(ps), text: b, heading: heading, tokens: estimateTokens(b), score: answers(b, terms)})
		}
	}
	byScore := slices.Clone(ps)
	slices.SortStableFunc(byScore, func(x, y passage) int {
		switch {
		case x.heading != y.heading:
			if x.heading {
				return 1
			}
			return -1
		case x.score > y.score:
			return -1
		case x.score < y.score:
			return 1
		}
		return 0
	})
	keep := make([]bool, len(ps))
	used := 0
	for _, p := range byScore {
		if p.heading {
			break // headings come last, and go with their passages
		}
		if used > 0 && used+p.tokens > tokens {
			continue
		}
		keep[p.order], used = true, used+p.tokens
	}
	out := a
	out.Chunks = nil
	for ci, c := range a.Chunks {
		var texts []string
		kept := false
		for _, p := range ps {
			if p.chunk != ci {
				continue
			}
			kept = kept || keep[p.order]
			if keep[p.order] || p.heading {
				texts = append(texts, p.text)
			}
		}
		if kept {
			c.Text = strings.Join(texts, "\n\n")
			out.Chunks = append(out.Chunks, c)
		}
	}
	return out, used
}

// blocks splits text at its blank lines, a fenced code block whole.
func blocks(text string) []string {
	var out []string
	var cur []string
	fence := false
	flush := func() {
		if b := strings.TrimSpace(strings.Join(cur, "\n")); b != "" {
			out = append(out, b)
		}
		cur = cur[:0]
	}
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = !fence
		}
		switch {
		case !fence && t == "":
			flush()
		case !fence && strings.HasPrefix(t, "#"):
			flush()
			cur = append(cur, line)
			flush()
		default:
			cur = append(cur, line)
		}
	}
	flush()
	return out
}

// queryTerms are the query's words of three letters or more, by their
// first five letters: "configure" meets "configuration".
func queryTerms(query string) map[string]bool {
	out := map[string]bool{}
	for _, w := range termWords(query) {
		out[w] = true
	}
	return out
}

// answers is how much of the query a passage says for its length: the
// query's words it holds, each once, over the square root of its words.
func answers(text string, terms map[string]bool) float64 {
	ws := termWords(text)
	if len(ws) == 0 {
		return 0
	}
	held := map[string]bool{}
	for _, w := range ws {
		if terms[w] {
			held[w] = true
		}
	}
	return float64(len(held)) / math.Sqrt(float64(len(ws)))
}

// termWords are the lower-cased words of text of three letters or more,
// cut to five.
func termWords(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if r := []rune(w); len(r) >= 3 {
			out = append(out, string(r[:min(len(r), 5)]))
		}
	}
	return out
}
