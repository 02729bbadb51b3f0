package eval

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"unicode"
)

// BaselineParagraphs is how many paragraphs the retrieval baseline
// answers with.
const BaselineParagraphs = 3

// BM25's parameters, the usual ones.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// Baseline is the retrieval baseline the answers are measured against:
// the knowledge base's paragraphs (blocks of its articles between blank
// lines) ranked by a plain BM25 (k1 1.2, b 0.75) over the content terms
// that term recall compares. It knows nothing of the engine's index, its
// chunks or its question handling, so it stays the same yardstick
// whatever they become. It is read-only once built: safe for concurrent
// use.
type Baseline struct {
	paragraphs []paragraph
	df         map[string]int // paragraphs holding each term
	avgLen     float64
}

type paragraph struct {
	text string
	tf   map[string]int
	len  int
	head []string // the content terms of its first AnswerWords words
}

// NewBaseline indexes the paragraphs of the articles' texts; a paragraph
// without a content term (a rule, a lone heading mark) is left out.
func NewBaseline(articles []string) *Baseline {
	b := &Baseline{df: map[string]int{}}
	total := 0
	for _, a := range articles {
		for _, p := range strings.Split(strings.ReplaceAll(a, "\r\n", "\n"), "\n\n") {
			ts := terms(p)
			if len(ts) == 0 {
				continue
			}
			tf := map[string]int{}
			for _, t := range ts {
				tf[t]++
			}
			for t := range tf {
				b.df[t]++
			}
			text := strings.TrimSpace(p)
			b.paragraphs = append(b.paragraphs, paragraph{text: text, tf: tf, len: len(ts), head: ContentTerms(firstWords(text, AnswerWords))})
			total += len(ts)
		}
	}
	if len(b.paragraphs) > 0 {
		b.avgLen = float64(total) / float64(len(b.paragraphs))
	}
	return b
}

// Top are the k paragraphs that score best for query, best first; a
// paragraph sharing no term with it is never among them. Equal scores
// keep the articles' order.
func (b *Baseline) Top(query string, k int) []string {
	type scored struct {
		i     int
		score float64
	}
	q := ContentTerms(query)
	var hits []scored
	for i := range b.paragraphs {
		if s := b.score(i, q); s > 0 {
			hits = append(hits, scored{i, s})
		}
	}
	slices.SortStableFunc(hits, func(x, y scored) int { return cmp.Compare(y.score, x.score) })
	var out []string
	for _, h := range hits[:min(k, len(hits))] {
		out = append(out, b.paragraphs[h.i].text)
	}
	return out
}

// score is paragraph i's BM25 score for the query's terms q.
func (b *Baseline) score(i int, q []string) float64 {
	p, n := b.paragraphs[i], float64(len(b.paragraphs))
	s := 0.0
	for _, t := range q {
		tf := float64(p.tf[t])
		if tf == 0 {
			continue
		}
		df := float64(b.df[t])
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		s += idf * tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*float64(p.len)/b.avgLen))
	}
	return s
}

// Answer is the baseline's answer to a question: its BaselineParagraphs
// best paragraphs, uncut.
func (b *Baseline) Answer(question string) string {
	return strings.Join(b.Top(question, BaselineParagraphs), "\n\n")
}

// AnswerWords is the length of a good answer in words, what the best
// paragraph is cut to.
const AnswerWords = 120

// BestParagraph is the paragraph, cut to AnswerWords words, that holds
// the most of the reference's content terms: chosen knowing the answer,
// which no engine does, it shows how much of the reference one passage of
// the knowledge base can hold at all. A reference the knowledge base says
// in other words scores low here and cannot score high anywhere. Empty
// when no paragraph holds any.
func (b *Baseline) BestParagraph(reference string) string {
	wanted := map[string]bool{}
	for _, t := range ContentTerms(reference) {
		wanted[t] = true
	}
	best, bestHeld := -1, 0
	for i := range b.paragraphs { // the reference's terms, read once, against each paragraph's
		held := 0
		for _, t := range b.paragraphs[i].head {
			if wanted[t] {
				held++
			}
		}
		if held > bestHeld {
			best, bestHeld = i, held
		}
	}
	if best < 0 {
		return ""
	}
	return firstWords(b.paragraphs[best].text, AnswerWords)
}

// firstWords is text up to the end of its n-th word (words as WordCount
// counts them).
func firstWords(text string, n int) string {
	count, in := 0, false
	for i, r := range text {
		word := unicode.IsLetter(r) || unicode.IsDigit(r)
		if word && !in {
			if count == n {
				return strings.TrimSpace(text[:i])
			}
			count++
		}
		in = word
	}
	return text
}
