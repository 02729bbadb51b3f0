package kb

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/sgrgraph/sgrgraph/contracts"
)

func TestConfidence(t *testing.T) {
	tests := []struct {
		name   string
		scores []float64
		want   contracts.RetrievalConfidence
	}{
		{"nothing found", nil, contracts.RetrievalConfidence{}},
		{"one strong chunk stands alone", []float64{0.9},
			contracts.RetrievalConfidence{TopScore: 0.9, MeanTopK: 0.9, ScoreGap: 0.9, NAboveThreshold: 1, LikelyRelevant: true}},
		{"two above the threshold", []float64{0.6, 0.58, 0.1},
			contracts.RetrievalConfidence{TopScore: 0.6, MeanTopK: 0.4267, ScoreGap: 0.02, NAboveThreshold: 2, LikelyRelevant: true}},
		{"flat marginal top is not relevant", []float64{0.52, 0.49, 0.48},
			contracts.RetrievalConfidence{TopScore: 0.52, MeanTopK: 0.4967, ScoreGap: 0.03, NAboveThreshold: 1, LikelyRelevant: false}},
		{"top exactly at the threshold counts", []float64{0.5, 0.2},
			contracts.RetrievalConfidence{TopScore: 0.5, MeanTopK: 0.35, ScoreGap: 0.3, NAboveThreshold: 1, LikelyRelevant: true}},
		{"below the threshold", []float64{0.3, 0.1},
			contracts.RetrievalConfidence{TopScore: 0.3, MeanTopK: 0.2, ScoreGap: 0.2, NAboveThreshold: 0, LikelyRelevant: false}},
		{"unsorted input, mean over k=5 best", []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7},
			contracts.RetrievalConfidence{TopScore: 0.7, MeanTopK: 0.5, ScoreGap: 0.1, NAboveThreshold: 3, LikelyRelevant: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Confidence(tc.scores, 0.5, 5)
			assert.InDelta(t, tc.want.TopScore, got.TopScore, 1e-3)
			assert.InDelta(t, tc.want.MeanTopK, got.MeanTopK, 1e-3)
			assert.InDelta(t, tc.want.ScoreGap, got.ScoreGap, 1e-3)
			assert.Equal(t, tc.want.NAboveThreshold, got.NAboveThreshold)
			assert.Equal(t, tc.want.LikelyRelevant, got.LikelyRelevant)
		})
	}
}

func TestConfidenceDoesNotReorderItsInput(t *testing.T) {
	in := []float64{0.1, 0.9}
	Confidence(in, 0.5, 5)
	assert.Equal(t, []float64{0.1, 0.9}, in)
}
