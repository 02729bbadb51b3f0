// Package textmodel is the offline engine's trained text model: a
// logistic regression over hashed word, word-pair and character n-gram
// features that scores how much a message reads like advertising or a
// scam, and the background word counts the off-topic score compares a
// knowledge base's words with. Both are trained by
// `go generate ./models/offline` (package spamtrain) and embedded.
package textmodel

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"strings"
	"unicode"
)

// Buckets is the number of hashed features.
const Buckets = 1 << 15

// Tokens are the lower-case words of text, with the signs advertising
// leans on as tokens of their own: currency, "!", links, long numbers.
func Tokens(text string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() == 0 {
			return
		}
		w := b.String()
		b.Reset()
		digits := 0
		for _, r := range w {
			if unicode.IsDigit(r) {
				digits++
			}
		}
		switch {
		case strings.HasPrefix(w, "http") || strings.HasPrefix(w, "www"):
			w = "<link>"
		case digits >= 5:
			w = "<number>"
		case digits > 0 && digits == len([]rune(w)):
			w = "<digits>"
		}
		out = append(out, w)
	}
	for _, r := range strings.ToLower(text) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'':
			b.WriteRune(r)
		case r == '£' || r == '$' || r == '€' || r == '₽' || r == '%' || r == '!':
			flush()
			out = append(out, string(r))
		case r == '/' || r == '.' || r == ':':
			if b.Len() > 0 && strings.HasPrefix(b.String(), "http") || strings.HasPrefix(b.String(), "www") {
				b.WriteRune(r) // a link stays one token
				continue
			}
			flush()
		default:
			flush()
		}
	}
	flush()
	return out
}

// Features are the hashed features of text: each word, each pair of
// neighbouring words, and the character trigrams of each word, which carry
// misspellings and the other language's inflections.
func Features(text string) []uint32 {
	toks := Tokens(text)
	out := make([]uint32, 0, 4*len(toks))
	for i, t := range toks {
		out = append(out, hash("w:"+t))
		if i > 0 {
			out = append(out, hash("b:"+toks[i-1]+" "+t))
		}
		r := []rune("<" + t + ">")
		for j := 0; j+3 <= len(r); j++ {
			out = append(out, hash("c:"+string(r[j:j+3])))
		}
	}
	return out
}

// hash maps a feature to a bucket other than the bias's.
func hash(s string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return 1 + h.Sum32()%(Buckets-1)
}

// Model is the weights of the logistic regression, one a feature bucket;
// bucket 0 holds the bias.
type Model struct{ W []float32 }

// Prob is the probability that text is advertising or a scam.
func (m Model) Prob(text string) float64 {
	return 1 / (1 + math.Exp(-m.logit(Features(text))))
}

// logit sums the features' weights, scaled by the root of their number
// so that long and short messages share one scale, and adds the bias.
func (m Model) logit(fs []uint32) float64 {
	if len(fs) == 0 {
		return float64(m.W[0])
	}
	z := 0.0
	for _, f := range fs {
		z += float64(m.W[f])
	}
	return float64(m.W[0]) + float64(z/math.Sqrt(float64(len(fs))))
}

// MarshalBinary writes the weights as little-endian float32s.
func (m Model) MarshalBinary() ([]byte, error) {
	out := make([]byte, 0, 4*len(m.W))
	for _, w := range m.W {
		out = binary.LittleEndian.AppendUint32(out, math.Float32bits(w))
	}
	return out, nil
}

// Parse reads weights written by MarshalBinary.
func Parse(data []byte) (Model, error) {
	if len(data) != 4*Buckets {
		return Model{}, fmt.Errorf("textmodel: weights have %d bytes, want %d", len(data), 4*Buckets)
	}
	m := Model{W: make([]float32, Buckets)}
	for i := range m.W {
		m.W[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
	}
	return m, nil
}

// Sample is one labelled training message.
type Sample struct {
	Text string
	Spam bool
}

// Train fits the model by stochastic gradient descent, in the samples'
// order, the same way every time: the weights depend on nothing else.
func Train(samples []Sample, epochs int) (Model, error) {
	if len(samples) == 0 {
		return Model{}, errors.New("textmodel: no samples")
	}
	spam := 0
	for _, s := range samples {
		if s.Spam {
			spam++
		}
	}
	if spam == 0 || spam == len(samples) {
		return Model{}, errors.New("textmodel: training needs both spam and other messages")
	}
	m := Model{W: make([]float32, Buckets)}
	w := make([]float64, Buckets)
	feats := make([][]uint32, len(samples))
	for i, s := range samples {
		feats[i] = Features(s.Text)
	}
	const l2 = 1e-4
	for e := 0; e < epochs; e++ {
		rate := 0.5 / (1 + float64(e))
		for i, s := range samples {
			fs := feats[i]
			norm := math.Sqrt(float64(max(len(fs), 1)))
			z := w[0]
			for _, f := range fs {
				z += float64(w[f] / norm)
			}
			p := 1 / (1 + math.Exp(-z))
			y := 0.0
			if s.Spam {
				y = 1
			}
			g := float64(p-y) / norm
			w[0] -= float64(rate * float64(p-y))
			for _, f := range fs {
				// Each product rounded on its own: no fused multiply-add
				// on any platform, so the weights come out the same.
				reg := float64(l2 * w[f])
				w[f] -= float64(rate * float64(g+reg))
			}
		}
	}
	for i, v := range w {
		m.W[i] = float32(v)
	}
	return m, nil
}
