package kb

import (
	"cmp"
	"slices"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// minScoreGap is how far the best chunk must stand above the next one for a
// single chunk above the threshold to count as a relevant find.
const minScoreGap = 0.05

// Confidence computes the retrieval confidence of one query from absolute
// chunk scores in [0,1] (seed 003 §4). scores need not be sorted.
//
//   - top_score: the best chunk score;
//   - mean_top_k: the mean of the k best scores (fewer when fewer were found);
//   - score_gap: best minus second best (the best itself when alone);
//   - n_above_threshold: chunks scoring at least threshold;
//   - likely_relevant: the best chunk reaches the threshold and either a
//     second chunk does too or the best stands clear of the rest.
//
// Because scores are absolute, one strong article gives a high top_score and
// a wide gap rather than the 0.5 a min-max normalisation would produce.
func Confidence(scores []float64, threshold float64, k int) contracts.RetrievalConfidence {
	return confidence(append([]float64(nil), scores...), threshold, k)
}

// confidence is Confidence of scores it may reorder: a search's own copy.
func confidence(s []float64, threshold float64, k int) contracts.RetrievalConfidence {
	if len(s) == 0 {
		return contracts.RetrievalConfidence{}
	}
	// Best first; a NaN, as sort.Float64Slice has it, last.
	slices.SortFunc(s, func(a, b float64) int { return cmp.Compare(b, a) })
	var c contracts.RetrievalConfidence
	c.TopScore = s[0]
	n := min(max(k, 1), len(s))
	var sum float64
	for _, v := range s[:n] {
		sum += v
	}
	c.MeanTopK = sum / float64(n)
	second := 0.0
	if len(s) > 1 {
		second = s[1]
	}
	c.ScoreGap = s[0] - second
	for _, v := range s {
		if v >= threshold {
			c.NAboveThreshold++
		}
	}
	c.LikelyRelevant = c.TopScore >= threshold && (c.NAboveThreshold >= 2 || c.ScoreGap >= minScoreGap)
	return c
}
