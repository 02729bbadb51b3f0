package eval

import (
	"cmp"
	"math"
	"slices"
)

// PRF is precision, recall and F1 of one label, with the counts they come
// from. A ratio whose denominator is zero is 0.
type PRF struct {
	TP, FP, FN int
	Precision  float64
	Recall     float64
	F1         float64
}

// NewPRF computes the figures of the counts.
func NewPRF(tp, fp, fn int) PRF {
	p, r := ratio(tp, tp+fp), ratio(tp, tp+fn)
	f := 0.0
	if p+r > 0 {
		f = 2 * p * r / (p + r)
	}
	return PRF{TP: tp, FP: fp, FN: fn, Precision: p, Recall: r, F1: f}
}

// Support is how many items carry the label.
func (m PRF) Support() int { return m.TP + m.FN }

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Scored is one item's score for the positive class and its true label.
type Scored struct {
	Score    float64
	Positive bool
}

// Point is a point of a curve; Threshold is the score at and above which
// items are called positive there.
type Point struct {
	X, Y      float64
	Threshold float64
}

// thresholds walks the items by falling score, one step per distinct
// score (tied items are called together), with the true and false
// positives counted at each step.
func thresholds(items []Scored, step func(threshold float64, tp, fp int)) (pos, neg int) {
	sorted := slices.Clone(items)
	slices.SortStableFunc(sorted, func(a, b Scored) int { return cmp.Compare(b.Score, a.Score) })
	for _, it := range sorted {
		if it.Positive {
			pos++
		} else {
			neg++
		}
	}
	tp, fp := 0, 0
	for i, it := range sorted {
		if it.Positive {
			tp++
		} else {
			fp++
		}
		if i == len(sorted)-1 || sorted[i+1].Score != it.Score {
			step(it.Score, tp, fp)
		}
	}
	return pos, neg
}

// ROC is the receiver operating characteristic: false-positive rate (X)
// against true-positive rate (Y), from (0,0) to (1,1), and the area under
// it. ok is false when the items lack either class and there is no curve.
func ROC(items []Scored) (curve []Point, auc float64, ok bool) {
	type counts struct {
		threshold float64
		tp, fp    int
	}
	var steps []counts
	pos, neg := thresholds(items, func(t float64, tp, fp int) { steps = append(steps, counts{t, tp, fp}) })
	if pos == 0 || neg == 0 {
		return nil, 0, false
	}
	curve = []Point{{X: 0, Y: 0, Threshold: math.Inf(1)}}
	for _, s := range steps {
		p := Point{X: ratio(s.fp, neg), Y: ratio(s.tp, pos), Threshold: s.threshold}
		last := curve[len(curve)-1]
		auc += (p.X - last.X) * (p.Y + last.Y) / 2 // a tie is a diagonal step: half credit
		curve = append(curve, p)
	}
	return curve, auc, true
}

// PR is the precision-recall curve: recall (X) against precision (Y), one
// point per distinct score, and the average precision (the sum of the
// precision at each step weighted by the recall it adds). ok is false when
// there is no positive item.
func PR(items []Scored) (curve []Point, ap float64, ok bool) {
	pos := 0
	for _, it := range items {
		if it.Positive {
			pos++
		}
	}
	if pos == 0 {
		return nil, 0, false
	}
	lastRecall := 0.0
	thresholds(items, func(t float64, tp, fp int) {
		p := Point{X: ratio(tp, pos), Y: ratio(tp, tp+fp), Threshold: t}
		ap += (p.X - lastRecall) * p.Y
		lastRecall = p.X
		curve = append(curve, p)
	})
	return curve, ap, true
}

// Confusion counts items by their true label (rows) and the label given
// (columns).
type Confusion struct {
	Labels []string
	Counts [][]int
}

// NewConfusion makes an empty matrix over labels; a label given that is
// not among them is added as a column and row when counted.
func NewConfusion(labels ...string) *Confusion {
	c := &Confusion{}
	for _, l := range labels {
		c.index(l)
	}
	return c
}

func (c *Confusion) index(label string) int {
	if i := slices.Index(c.Labels, label); i >= 0 {
		return i
	}
	c.Labels = append(c.Labels, label)
	for i := range c.Counts {
		c.Counts[i] = append(c.Counts[i], 0)
	}
	c.Counts = append(c.Counts, make([]int, len(c.Labels)))
	return len(c.Labels) - 1
}

// Add counts one item.
func (c *Confusion) Add(want, got string) {
	w, g := c.index(want), c.index(got)
	c.Counts[w][g]++
}

// Accuracy is the share of items on the diagonal.
func (c *Confusion) Accuracy() float64 {
	right, all := 0, 0
	for i, row := range c.Counts {
		for j, n := range row {
			all += n
			if i == j {
				right += n
			}
		}
	}
	return ratio(right, all)
}

// PRF is the precision, recall and F1 of one label, the others taken as
// negatives.
func (c *Confusion) PRF(label string) PRF {
	k := slices.Index(c.Labels, label)
	if k < 0 {
		return PRF{}
	}
	tp, fp, fn := c.Counts[k][k], 0, 0
	for i := range c.Labels {
		if i != k {
			fp += c.Counts[i][k]
			fn += c.Counts[k][i]
		}
	}
	return NewPRF(tp, fp, fn)
}

// FirstRelevant is the 1-based rank of the first of ranked that is in
// relevant, 0 when none is.
func FirstRelevant(ranked, relevant []string) int {
	for i, id := range ranked {
		if slices.Contains(relevant, id) {
			return i + 1
		}
	}
	return 0
}

// HitAt is the share of rankings whose first relevant item (FirstRelevant)
// is within the top k.
func HitAt(ranks []int, k int) float64 {
	hits := 0
	for _, r := range ranks {
		if r > 0 && r <= k {
			hits++
		}
	}
	return ratio(hits, len(ranks))
}

// MRR is the mean reciprocal rank of the first relevant item; a ranking
// with none counts 0.
func MRR(ranks []int) float64 {
	if len(ranks) == 0 {
		return 0
	}
	sum := 0.0
	for _, r := range ranks {
		if r > 0 {
			sum += 1 / float64(r)
		}
	}
	return sum / float64(len(ranks))
}

// mean is the average of xs, 0 for none.
func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}
