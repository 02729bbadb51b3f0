package offline

import (
	"container/heap"
	"math"
	"strings"
)

// A question that names no article is answered from several of the found
// ones, and the words a full answer would use are guessed from the found
// passages themselves, as a relevance model does: the words of the
// passages that answer the question best, the more likely the better
// those answer, and the question's own words. The sentences quoted are
// those that say the most of these words for their length.

// passage is a found chunk as the stems of its sentences: how often each
// is said, how many words it has, and the article it stands in.
type passage struct {
	stems   map[string]int
	words   float64
	article int
}

// passagesOf gathers the candidates' stems by the chunk they stand in.
func passagesOf(cs []candidate, stemsOf []map[string]int, chunkOf []int, chunks int) []passage {
	ps := make([]passage, chunks)
	for n, c := range cs {
		p := &ps[chunkOf[n]]
		if p.stems == nil {
			p.stems = make(map[string]int, 4*len(stemsOf[n]))
		}
		p.article = c.article
		for s, k := range stemsOf[n] {
			p.stems[s] += k
			p.words += float64(k)
		}
	}
	return ps
}

// relevance is how well each found chunk answers the question: BM25 of
// its words against the question's weighted words, less for an article
// the searches ranked lower. Several sentences of a chunk that answers
// tell more together than the best of them alone.
func relevance(ps []passage, weight []weighted) []float64 {
	total := 0.0
	for _, p := range ps {
		total += p.words
	}
	avgLen := math.Max(1, total/float64(max(len(ps), 1)))
	out := make([]float64, len(ps))
	for i, p := range ps {
		for _, w := range weight {
			if k := float64(p.stems[w.stem]); k > 0 {
				out[i] += w.weight * k * (tfK1 + 1) / (k + tfK1*(1-lengthB+lengthB*p.words/avgLen))
			}
		}
		out[i] *= searchRankShare(p.article)
	}
	return out
}

// expectedStems is what each stem is worth to the answer, about how
// likely a full answer is to say it: the share of the found passages'
// words it makes, each passage counted by how well it answers, scaled so
// that the likeliest counts 1; the question's own words count 1 more.
func expectedStems(ps []passage, relevance []float64, weight []weighted) map[string]float64 {
	best := 0.0
	for _, r := range relevance {
		best = math.Max(best, r)
	}
	value := map[string]float64{}
	if best == 0 {
		return value
	}
	for i, p := range ps {
		if relevance[i] == 0 {
			continue
		}
		share := relevance[i] / best / p.words
		for s, k := range p.stems {
			value[s] += share * float64(k)
		}
	}
	most := 0.0
	for _, v := range value {
		most = math.Max(most, v)
	}
	for s := range value {
		value[s] /= most
	}
	for _, w := range weight {
		value[w.stem]++
	}
	return value
}

// answering are the sentences an answer put together from several
// articles may quote: those of the chunks that answer the question, each
// with what its words count for (factorOf); an opinion only when it
// holds a word of the question no fact does (scored, in kept); none that
// says nothing without the lines around it (unfinished).
func answering(cs, kept []candidate, chunkOf []int, relevance []float64, kind questionKind) []candidate {
	scored := make(map[int]bool, len(kept))
	for _, c := range kept {
		scored[c.order] = true
	}
	var out []candidate
	for n, c := range cs {
		if relevance[chunkOf[n]] > 0 && (!c.opinion || scored[n]) && !unfinished(c.text) {
			c.factor = factorOf(c, kind, false)
			out = append(out, c)
		}
	}
	return out
}

// fillExpected chooses sentences within maxAnswerWords, each the one that
// adds the most of the stems' value not yet said, for its words: the
// greedy choice that covers the most of what is asked for in the words
// there are. A candidate's order is its index in stemsOf.
//
// What a sentence adds only falls as more is said, so the gain worked out
// before is a bound: a sentence whose gain, worked out again, still beats
// every other's bound is the best, and most are never worked out again
// (the lazy greedy choice, the same sentences as the plain one).
func fillExpected(cs []candidate, stemsOf []map[string]int, value map[string]float64) []candidate {
	said := map[string]bool{}
	gainOf := func(c candidate) float64 {
		gain := 0.0
		for s := range stemsOf[c.order] {
			if !said[s] {
				gain += value[s]
			}
		}
		return gain * c.factor / float64(c.words)
	}
	bounds := make(gainHeap, 0, len(cs))
	for i, c := range cs {
		if g := gainOf(c); g > 0 && c.words <= maxAnswerWords {
			bounds = append(bounds, bound{i, g})
		}
	}
	heap.Init(&bounds)
	var out []candidate
	words := 0
	for bounds.Len() > 0 {
		top := heap.Pop(&bounds).(bound)
		c := cs[top.i]
		if words+c.words > maxAnswerWords {
			continue // it will not fit later either
		}
		if top.gain = gainOf(c); top.gain <= 0 {
			continue
		}
		if bounds.Len() > 0 && bounds.before(bounds[0], top) {
			heap.Push(&bounds, top) // another may add more now
			continue
		}
		for s := range stemsOf[c.order] {
			said[s] = true
		}
		c.score = top.gain // what it was chosen for, which draft weighs when it must shorten
		out = append(out, c)
		words += c.words
	}
	return out
}

// bound is a candidate's gain when last worked out, at most what it adds
// now.
type bound struct {
	i    int
	gain float64
}

// gainHeap keeps the highest bound first, the earlier candidate first
// among equal ones, as the plain greedy choice takes it.
type gainHeap []bound

func (h gainHeap) before(a, b bound) bool {
	return a.gain > b.gain || a.gain == b.gain && a.i < b.i
}
func (h gainHeap) Len() int           { return len(h) }
func (h gainHeap) Less(i, j int) bool { return h.before(h[i], h[j]) }
func (h gainHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *gainHeap) Push(x any)        { *h = append(*h, x.(bound)) }
func (h *gainHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// unfinished: the line announces what follows ("Commands removed or
// replaced:") or breaks off where the next goes on ("API client that
// sends RPCs to an etcd server, and"). Quoted away from its lines, as an
// answer from several articles quotes, it says nothing.
func unfinished(text string) bool {
	t := strings.TrimSpace(text)
	return strings.HasSuffix(t, ":") || strings.HasSuffix(t, ",") || strings.HasSuffix(t, ";") ||
		strings.HasSuffix(t, " and") || strings.HasSuffix(t, " or")
}
