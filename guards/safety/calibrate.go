package safety

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/sgrgraph/sgrgraph/contracts"
	evalsplit "github.com/sgrgraph/sgrgraph/eval/split"
)

// The guard's probability that a message is harmful is calibrated: Platt
// scaling of the model's flagged probability (its logit), apart for the
// messages a lexicon entry fired on, fitted by logistic regression on rows neither
// trained on nor held out: the development part (docs/eval.md) of the
// training sources' held-out fifth, tests/testdata/guard_heldout.jsonl.
// Of the messages given about 0.8 there, about eight in ten are labelled
// harmful; TestCalibration checks it on the held-out part.
//
// calibration.json is written by `go generate ./guards/safety`
// (internal/train) after the weights, from them; TestCalibrationIsCurrent
// fits it again and compares.

//go:embed calibration.json
var embeddedCalibration []byte

// calibration are the Platt weights: a logistic curve over the logit of
// the model's probability for the messages no lexicon entry fired on, and
// for those one did another slope and an intercept per category of the
// entries that fired (the lexicon's Jailbreak patterns, say, were right on
// every message of the development rows they fired on, its Violent ones
// less often: "kill a character in my novel").
type calibration struct {
	// Model and Bias are the slope and intercept when no entry fired;
	// LexiconModel and Lexicon[category] are added to them when entries of
	// those categories did.
	Model        float64            `json:"model"`
	Bias         float64            `json:"bias"`
	LexiconModel float64            `json:"lexicon_model"`
	Lexicon      map[string]float64 `json:"lexicon"`
	// Rows are the development rows it was fitted on.
	Rows int `json:"rows"`
}

// nFeatures: the model's logit, the intercept, the model's logit again
// when an entry fired, and one intercept per category.
const nFeatures = 3 + 9

// features are what the calibration weighs, in the order of its weights.
func features(model float64, found []string) [nFeatures]float64 {
	var x [nFeatures]float64
	x[0], x[1] = logit(model), 1
	if len(found) > 0 {
		x[2] = x[0]
	}
	for i, c := range categories {
		if slices.Contains(found, c) {
			x[3+i] = 1
		}
	}
	return x
}

// weights are the calibration in the order of features.
func (c calibration) weights() [nFeatures]float64 {
	w := [nFeatures]float64{c.Model, c.Bias, c.LexiconModel}
	for i, cat := range categories {
		w[3+i] = c.Lexicon[cat]
	}
	return w
}

// calibrationOf is the calibration of weights in the order of features
// (weights' inverse), each rounded to six places, fitted on rows rows.
func calibrationOf(w [nFeatures]float64, rows int) calibration {
	round := func(x float64) float64 { return math.Round(x*1e6) / 1e6 }
	c := calibration{Model: round(w[0]), Bias: round(w[1]), LexiconModel: round(w[2]), Lexicon: map[string]float64{}, Rows: rows}
	for i, cat := range categories {
		c.Lexicon[cat] = round(w[3+i])
	}
	return c
}

// flagged is the calibrated probability that a message is harmful, found
// the categories of the lexicon entries that fired on it.
func (c calibration) flagged(model float64, found []string) float64 {
	return 1 / (1 + math.Exp(-dot(c.weights(), features(model, found))))
}

// logit of a probability, kept away from 0 and 1 so a message with no
// known feature still has a finite score.
func logit(p float64) float64 {
	p = min(max(p, 1e-4), 1-1e-4)
	return math.Log(p / (1 - p))
}

var defaultCalibration = sync.OnceValues(func() (calibration, error) { return decodeCalibration(embeddedCalibration) })

func decodeCalibration(b []byte) (calibration, error) {
	var c calibration
	if err := json.Unmarshal(b, &c); err != nil {
		return c, fmt.Errorf("safety calibration: %w", err)
	}
	if c.Rows == 0 || c.Model <= 0 || len(c.Lexicon) != len(categories) {
		return c, errors.New("safety calibration: no rows, or a model weight that is not positive: run go generate ./guards/safety")
	}
	return c, nil
}

// signal is what calibration reads of one message, and its label.
type signal struct {
	model   float64  // the model's flagged probability, as combine reads it
	found   []string // the categories of the lexicon entries that fired
	harmful bool
}

// Calibrate fits the calibration of the weights file given on the
// development part of the held-out fifth of the training data under dir,
// and returns calibration.json. The same weights and data give the same
// bytes.
func Calibrate(weights []byte, dir string) ([]byte, error) {
	sig, err := calibrationSignals(weights, dir, evalsplit.Dev)
	if err != nil {
		return nil, err
	}
	c, err := fitPlatt(sig)
	if err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return nil, err
	}
	// What the guard would refuse at start-up is not written.
	if _, err := decodeCalibration(b); err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// calibrationSignals classifies the rows of one part of the held-out fifth
// under dir with the lexicon and the weights given.
func calibrationSignals(weights []byte, dir string, part evalsplit.Part) ([]signal, error) {
	m, err := decodeModel(weights)
	if err != nil {
		return nil, err
	}
	r, err := defaultLexiconRules()
	if err != nil {
		return nil, err
	}
	all, err := LoadExamples(dir)
	if err != nil {
		return nil, err
	}
	var out []signal
	for _, e := range all {
		if !e.HeldOut() || e.evalPart() != part {
			continue
		}
		v, first := r.runLexicon(e.Text, nil)
		p := folded(v, m.probabilities(first))
		out = append(out, signal{model: 1 - p[0], found: v.found, harmful: e.Level != contracts.LevelSafe})
	}
	if len(out) < 100 {
		return nil, fmt.Errorf("%s: %d rows to calibrate on; want at least 100", dir, len(out))
	}
	return out, nil
}

// fitPlatt is logistic regression of the label on the features, by
// Newton's method, with a ridge so that a category whose entries were right
// on every row it fired on keeps a finite weight. A full Newton step can
// overshoot where the curve is flat (rows the model is sure of), and the
// next one overshoot further, so each step is halved until the penalised
// loss falls; a fit that does not settle is an error, never written as a
// calibration.
func fitPlatt(sig []signal) (calibration, error) {
	const n = nFeatures
	var w [n]float64
	w[0] = 1
	loss := plattLoss(sig, w)
	for range 100 {
		g, h := plattGradient(sig, w)
		step := solve(h, g)
		next, nextLoss := w, math.Inf(1)
		for shrink := 1.0; shrink > 1e-6; shrink /= 2 {
			for i := range n {
				next[i] = w[i] - shrink*step[i]
			}
			if nextLoss = plattLoss(sig, next); nextLoss <= loss {
				break
			}
		}
		moved := 0.0
		for i := range n {
			moved = max(moved, math.Abs(next[i]-w[i]))
		}
		// The fit stops when no step along Newton's direction lowers the
		// loss (a NaN loss lowers nothing) or the step is too short to
		// matter. A halved step can be that short away from the minimum
		// too: only a flat gradient says the fit is done.
		if !(nextLoss <= loss) || moved < 1e-10 {
			if !flat(g, len(sig)) {
				return calibration{}, fmt.Errorf("safety calibration: the fit on %d rows did not settle: it stopped short of the minimum (loss %g)", len(sig), loss)
			}
			return calibrationOf(w, len(sig)), nil
		}
		w, loss = next, nextLoss
	}
	return calibration{}, fmt.Errorf("safety calibration: the fit on %d rows did not settle in 100 steps (loss %g)", len(sig), loss)
}

// flat: the loss's gradient g over rows rows is nought, to rounding (a NaN
// is not).
func flat(g [nFeatures]float64, rows int) bool {
	for _, x := range g {
		if !(math.Abs(x) <= 1e-6*float64(rows)) {
			return false
		}
	}
	return true
}

// plattRidge keeps the weights finite (fitPlatt).
const plattRidge = 1e-3

// plattLoss is the negative log-likelihood of the labels under w, plus the
// ridge.
func plattLoss(sig []signal, w [nFeatures]float64) float64 {
	loss := 0.0
	for _, s := range sig {
		z := dot(w, features(s.model, s.found))
		if !s.harmful {
			z = -z
		}
		// -log(sigmoid(z)), written so that a large |z| neither
		// overflows nor rounds the loss away.
		if z > 0 {
			loss += math.Log1p(math.Exp(-z))
		} else {
			loss += -z + math.Log1p(math.Exp(z))
		}
	}
	for _, x := range w {
		loss += plattRidge / 2 * x * x
	}
	return loss
}

// plattGradient is the gradient and the Hessian of plattLoss at w.
func plattGradient(sig []signal, w [nFeatures]float64) (g [nFeatures]float64, h [nFeatures][nFeatures]float64) {
	const n = nFeatures
	for _, s := range sig {
		x := features(s.model, s.found)
		p := 1 / (1 + math.Exp(-dot(w, x)))
		y := 0.0
		if s.harmful {
			y = 1
		}
		for i := range n {
			g[i] += (p - y) * x[i]
			for j := range n {
				h[i][j] += p * (1 - p) * x[i] * x[j]
			}
		}
	}
	for i := range n {
		g[i] += plattRidge * w[i]
		h[i][i] += plattRidge
	}
	return g, h
}

func dot(w, x [nFeatures]float64) float64 {
	z := 0.0
	for i := range w {
		z += w[i] * x[i]
	}
	return z
}

// solve solves h·x = g by Gaussian elimination with partial pivoting.
func solve(h [nFeatures][nFeatures]float64, g [nFeatures]float64) [nFeatures]float64 {
	const n = nFeatures
	for c := range n {
		pivot := c
		for r := c + 1; r < n; r++ {
			if math.Abs(h[r][c]) > math.Abs(h[pivot][c]) {
				pivot = r
			}
		}
		h[c], h[pivot] = h[pivot], h[c]
		g[c], g[pivot] = g[pivot], g[c]
		for r := c + 1; r < n; r++ {
			f := h[r][c] / h[c][c]
			for k := c; k < n; k++ {
				h[r][k] -= f * h[c][k]
			}
			g[r] -= f * g[c]
		}
	}
	var x [nFeatures]float64
	for r := n - 1; r >= 0; r-- {
		s := g[r]
		for k := r + 1; k < n; k++ {
			s -= h[r][k] * x[k]
		}
		x[r] = s / h[r][r]
	}
	return x
}
