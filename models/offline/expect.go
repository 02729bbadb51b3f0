package offline

import (
	"math"
	"strings"
)

// A question that names no article is answered from several of the found
// ones, and the words a full answer would use are guessed from the found
// passages themselves, as a relevance model does: the words of the
// passages that answer the question best, the more likely the better
// those answer, and the question's own words. The sentences quoted are
// those that say the most of these words for their length.

// chunkRelevance is how well each found chunk answers the question: BM25
// of its words against the question's weighted words, less for an
// article the searches ranked lower. Several sentences of a chunk that
// answers tell more together than the best of them alone.
func chunkRelevance(cs []candidate, stemsOf []map[string]int, chunkOf []int, chunks int, weight []weighted) []float64 {
	tf := make([]map[string]int, chunks)
	length := make([]float64, chunks)
	article := make([]int, chunks)
	total := 0.0
	for n, c := range cs {
		ch := chunkOf[n]
		if tf[ch] == nil {
			tf[ch] = map[string]int{}
		}
		article[ch] = c.article
		for s, k := range stemsOf[n] {
			tf[ch][s] += k
			length[ch] += float64(k)
			total += float64(k)
		}
	}
	avgLen := math.Max(1, total/float64(max(chunks, 1)))
	out := make([]float64, chunks)
	for ch := range out {
		for _, w := range weight {
			if k := float64(tf[ch][w.stem]); k > 0 {
				out[ch] += w.weight * k * (tfK1 + 1) / (k + tfK1*(1-lengthB+lengthB*length[ch]/avgLen))
			}
		}
		out[ch] *= searchRankShare(article[ch])
	}
	return out
}

// expectedStems is what each stem is worth to the answer, about how
// likely a full answer is to say it: the share of the found passages'
// words it makes, each passage counted by how well it answers, scaled so
// that the likeliest counts 1; the question's own words count 1 more.
func expectedStems(stemsOf []map[string]int, chunkOf []int, relevance []float64, weight []weighted) map[string]float64 {
	best := 0.0
	for _, r := range relevance {
		best = math.Max(best, r)
	}
	length := make([]float64, len(relevance))
	for n, st := range stemsOf {
		for _, k := range st {
			length[chunkOf[n]] += float64(k)
		}
	}
	value := map[string]float64{}
	if best == 0 {
		return value
	}
	most := 0.0
	for n, st := range stemsOf {
		ch := chunkOf[n]
		if relevance[ch] == 0 {
			continue
		}
		share := relevance[ch] / best / length[ch]
		for s, k := range st {
			value[s] += share * float64(k)
			most = math.Max(most, value[s])
		}
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
func fillExpected(cs []candidate, stemsOf []map[string]int, value map[string]float64) []candidate {
	said := map[string]bool{}
	used := make([]bool, len(cs))
	var out []candidate
	words := 0
	for {
		best, bestGain := -1, 0.0
		for i, c := range cs {
			if used[i] || words+c.words > maxAnswerWords {
				continue
			}
			gain := 0.0
			for s := range stemsOf[c.order] {
				if !said[s] {
					gain += value[s]
				}
			}
			if gain *= c.factor / float64(c.words); gain > bestGain {
				best, bestGain = i, gain
			}
		}
		if best < 0 {
			return out
		}
		used[best] = true
		for s := range stemsOf[cs[best].order] {
			said[s] = true
		}
		chosen := cs[best]
		chosen.score = bestGain // what it was chosen for, which draft weighs when it must shorten
		out = append(out, chosen)
		words += chosen.words
	}
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
