package kb

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/url"
	"os"
	"time"
)

// Embedder turns texts into vectors, one a text, in order: what an eino
// embedding.Embedder's EmbedStrings does (agent.NewEmbedder adapts
// eino-ext's OpenAI-compatible one). This package takes no eino
// dependency of its own.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float64, error)
}

// EmbedFunc is a function as an Embedder.
type EmbedFunc func(ctx context.Context, texts []string) ([][]float64, error)

// Embed calls f.
func (f EmbedFunc) Embed(ctx context.Context, texts []string) ([][]float64, error) {
	return f(ctx, texts)
}

// vectorizer embeds texts in batches and checks what comes back: as many
// vectors as texts, all of one size (the configured one, if any), finite.
// Its vectors are unit length, so that a dot product is their cosine.
type vectorizer struct {
	emb     Embedder
	model   string
	batch   int
	dims    int // wanted; 0 takes the first vector's size
	host    string
	timeout time.Duration // one call, its retries included; the client's own bound, again on the context
}

func newVectorizer(emb Embedder, c EmbeddingsConfig) *vectorizer {
	return &vectorizer{emb: emb, model: c.Model, batch: max(c.Batch, 1), dims: c.Dimensions, host: hostOf(c.BaseURL), timeout: c.Timeout}
}

// embed returns one unit vector per text, of dims (when not 0) or of one
// common size.
func (v *vectorizer) embed(ctx context.Context, texts []string, dims int) ([][]float32, error) {
	if dims == 0 {
		dims = v.dims
	}
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += v.batch {
		part := texts[start:min(start+v.batch, len(texts))]
		got, err := v.call(ctx, part)
		if err != nil {
			return nil, err
		}
		if len(got) != len(part) {
			return nil, fmt.Errorf("kb.embeddings.base_url %s: model %s answered %d vectors for %d texts", v.host, v.model, len(got), len(part))
		}
		for i, vec := range got {
			if dims == 0 {
				dims = len(vec)
			}
			if len(vec) != dims || dims == 0 {
				return nil, fmt.Errorf("kb.embeddings.dimensions: model %s at %s answered a vector of %d dimensions, %d expected "+
					"(a changed model keeps its name? set kb.embeddings.dimensions, or clear kb.cache_dir's vectors.bin)", v.model, v.host, len(vec), dims)
			}
			unit, err := normalize(vec)
			if err != nil {
				return nil, fmt.Errorf("kb.embeddings.base_url %s: model %s: vector %d: %w", v.host, v.model, start+i, err)
			}
			out = append(out, unit)
		}
	}
	return out, nil
}

func (v *vectorizer) call(ctx context.Context, texts []string) ([][]float64, error) {
	if v.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, v.timeout)
		defer cancel()
	}
	got, err := v.emb.Embed(ctx, texts)
	if timedOut(err) && v.timeout > 0 {
		return nil, fmt.Errorf("kb.embeddings.base_url %s: model %s: embed %d texts: no answer within kb.embeddings.timeout %s: %w", v.host, v.model, len(texts), v.timeout, err)
	}
	if err != nil {
		return nil, fmt.Errorf("kb.embeddings.base_url %s: model %s: embed %d texts: %w", v.host, v.model, len(texts), err)
	}
	return got, nil
}

// normalize scales vec to unit length, as float32; a zero vector stays
// zero (it matches nothing), a value that is not finite is an error.
func normalize(vec []float64) ([]float32, error) {
	var sum float64
	for _, x := range vec {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("a value is not a finite number")
		}
		sum += x * x
	}
	out := make([]float32, len(vec))
	if sum == 0 {
		return out, nil
	}
	norm := math.Sqrt(sum)
	for i, x := range vec {
		out[i] = float32(x / norm)
	}
	return out, nil
}

// hostOf is the scheme and host of an endpoint, for errors: the path and
// query (which may hold a key) are left out.
func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "(invalid URL)"
	}
	return u.Scheme + "://" + u.Host
}

// timedOut says whether a call failed for its time running out (the
// context's deadline or the client's own timeout).
func timedOut(err error) bool {
	return err != nil && (errors.Is(err, context.DeadlineExceeded) || os.IsTimeout(err))
}
