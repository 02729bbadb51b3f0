package eval

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func scored(scores []float64, positive []bool) []Scored {
	out := make([]Scored, len(scores))
	for i := range scores {
		out[i] = Scored{Score: scores[i], Positive: positive[i]}
	}
	return out
}

// TestROCAndPR checks the areas on rankings small enough to count by hand.
// ROC-AUC is the share of (positive, negative) pairs ranked the right way,
// a tie counting one half; average precision sums the precision at each
// step weighted by the recall it adds.
func TestROCAndPR(t *testing.T) {
	tests := []struct {
		name     string
		scores   []float64
		positive []bool
		auc, ap  float64
	}{
		{"perfect ranking", []float64{0.9, 0.8, 0.2, 0.1}, []bool{true, true, false, false}, 1, 1},
		// Both negatives first: recall 1/2 at precision 1/3, then 1 at 2/4.
		{"reversed ranking", []float64{0.9, 0.8, 0.2, 0.1}, []bool{false, false, true, true}, 0, 0.5/3 + 0.5*0.5},
		// One score for all: one step to (1,1), the diagonal; precision 2/4.
		{"all tied", []float64{0.5, 0.5, 0.5, 0.5}, []bool{true, false, true, false}, 0.5, 0.5},
		// Pairs: 0.9>0.8, 0.9>0.1, 0.7>0.1 right, 0.7<0.8 wrong: 3/4.
		// AP: recall 1/2 at precision 1, then recall 1 at precision 2/3: 0.5 + 0.5*2/3.
		{"one pair wrong", []float64{0.9, 0.8, 0.7, 0.1}, []bool{true, false, true, false}, 0.75, 0.5 + 1.0/3},
		// Levels as ordinal scores: Unsafe 1, Controversial 0.5, Safe 0.
		// Pairs of (P 1, P .5, P 0) with (N .5, N 0): 1>.5, 1>0, .5=.5 (½), .5>0, 0<.5, 0=0 (½): 4/6.
		// AP: at 1, recall 1/3, precision 1; at .5, recall 2/3, precision 2/3; at 0, recall 1, precision 3/5.
		{"ordinal ties", []float64{1, 0.5, 0, 0.5, 0}, []bool{true, true, true, false, false}, 4.0 / 6, 1.0/3 + 2.0/9 + 1.0/5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			items := scored(tc.scores, tc.positive)
			roc, auc, ok := ROC(items)
			require.True(t, ok)
			assert.InDelta(t, tc.auc, auc, 1e-9, "ROC-AUC")
			assert.Equal(t, Point{0, 0, math.Inf(1)}, roc[0])
			assert.Equal(t, 1.0, roc[len(roc)-1].X)
			assert.Equal(t, 1.0, roc[len(roc)-1].Y)
			pr, ap, ok := PR(items)
			require.True(t, ok)
			assert.InDelta(t, tc.ap, ap, 1e-9, "average precision")
			assert.Equal(t, 1.0, pr[len(pr)-1].X, "the last point has every positive")
		})
	}
}

func TestCurvesNeedBothClasses(t *testing.T) {
	_, _, ok := ROC(scored([]float64{0.2, 0.4}, []bool{true, true}))
	assert.False(t, ok, "no negative: no false-positive rate")
	_, _, ok = PR(scored([]float64{0.2, 0.4}, []bool{false, false}))
	assert.False(t, ok, "no positive: no recall")
	_, _, ok = ROC(nil)
	assert.False(t, ok)
}

func TestPRF(t *testing.T) {
	tests := []struct {
		name        string
		tp, fp, fn  int
		p, r, f1    float64
		wantSupport int
	}{
		{"perfect", 5, 0, 0, 1, 1, 1, 5},
		// P = 3/4, R = 3/6 = 1/2, F1 = 2*(3/4)(1/2)/(5/4) = 0.6.
		{"mixed", 3, 1, 3, 0.75, 0.5, 0.6, 6},
		{"nothing predicted", 0, 0, 4, 0, 0, 0, 4},
		{"only false alarms", 0, 2, 0, 0, 0, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := NewPRF(tc.tp, tc.fp, tc.fn)
			assert.InDelta(t, tc.p, m.Precision, 1e-9)
			assert.InDelta(t, tc.r, m.Recall, 1e-9)
			assert.InDelta(t, tc.f1, m.F1, 1e-9)
			assert.Equal(t, tc.wantSupport, m.Support())
		})
	}
}

func TestConfusion(t *testing.T) {
	c := NewConfusion("a", "b")
	for _, p := range [][2]string{{"a", "a"}, {"a", "a"}, {"a", "b"}, {"b", "b"}, {"b", "error"}} {
		c.Add(p[0], p[1])
	}
	assert.Equal(t, []string{"a", "b", "error"}, c.Labels, "a label met only as an answer gets a column")
	assert.Equal(t, [][]int{{2, 1, 0}, {0, 1, 1}, {0, 0, 0}}, c.Counts)
	assert.InDelta(t, 3.0/5, c.Accuracy(), 1e-9)
	// b: tp 1, fp 1 (an a called b), fn 1 (a b called error).
	assert.Equal(t, NewPRF(1, 1, 1), c.PRF("b"))
	assert.Equal(t, PRF{}, c.PRF("missing"))
}

func TestRanks(t *testing.T) {
	tests := []struct {
		name            string
		ranks           []int
		hit1, hit3, mrr float64
	}{
		{"all first", []int{1, 1}, 1, 1, 1},
		// 1/1, 1/2, 1/3 and a miss: (1 + .5 + 1/3 + 0) / 4.
		{"spread", []int{1, 2, 3, 0}, 0.25, 0.75, (1 + 0.5 + 1.0/3) / 4},
		{"none found", []int{0, 0}, 0, 0, 0},
		{"empty", nil, 0, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.InDelta(t, tc.hit1, HitAt(tc.ranks, 1), 1e-9)
			assert.InDelta(t, tc.hit3, HitAt(tc.ranks, 3), 1e-9)
			assert.InDelta(t, tc.mrr, MRR(tc.ranks), 1e-9)
		})
	}
	assert.Equal(t, 2, FirstRelevant([]string{"x", "b", "a"}, []string{"a", "b"}))
	assert.Equal(t, 0, FirstRelevant([]string{"x"}, []string{"a"}))
}
