package text

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestScore(t *testing.T) {
	cases := []struct {
		query, doc string
		want       float64
	}{
		{"cats", "She has a cat", 1},                 // English stemming
		{"green tea", "prefers green coffee", 0.5},   // one of two terms
		{"сахар", "чай без сахара", 1},               // Russian stemming
		{"the and of", "the and of", 0},              // stop words only: nothing to find
		{"и tea", "tea", 1},                          // "и" is a stop word in Russian, dropped
		{"TEA", "tea", 1},                            // lowercase
		{"tea", "", 0},                               // nothing to match
		{"coffee", "tea", 0},                         // no shared term
		{"running shoes", "he runs in his shoes", 1}, // porter stems both
		{"кофе сахар", "кофе с сахаром", 1},          // English finds one term, Russian both: the better counts
	}
	for _, c := range cases {
		q, err := Parse(c.query)
		require.NoError(t, err)
		assert.InDelta(t, c.want, q.Score(c.doc), 1e-9, "%q in %q", c.query, c.doc)
	}
}

func TestEmpty(t *testing.T) {
	q, err := Parse("the of и")
	require.NoError(t, err)
	assert.True(t, q.Empty())
	q, err = Parse("tea")
	require.NoError(t, err)
	assert.False(t, q.Empty())
}
