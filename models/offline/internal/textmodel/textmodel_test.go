package textmodel

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTokens(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"WIN £1000 now!", []string{"win", "£", "<digits>", "now", "!"}},
		{"visit http://example.com/deal today", []string{"visit", "<link>", "today"}},
		{"call 08712300220", []string{"call", "<number>"}},
		{"Купите дёшево", []string{"купите", "дёшево"}},
	} {
		assert.Equal(t, tc.want, Tokens(tc.text), tc.text)
	}
}

func TestTrainAndScore(t *testing.T) {
	_, err := Train(nil, 1)
	assert.EqualError(t, err, "textmodel: no samples")
	_, err = Train([]Sample{{Text: "hello"}}, 1)
	assert.EqualError(t, err, "textmodel: training needs both spam and other messages")

	samples := []Sample{
		{"WIN a free prize now, call today!", true}, {"Free cash prize, claim now!", true},
		{"How do I reset my password?", false}, {"Where do I set the guard mode?", false},
	}
	m, err := Train(samples, 20)
	require.NoError(t, err)
	assert.Greater(t, m.Prob("claim your free prize now!"), m.Prob("how do I set the mode?"))

	b, err := m.MarshalBinary()
	require.NoError(t, err)
	back, err := Parse(b)
	require.NoError(t, err)
	assert.Equal(t, m.W, back.W)
	_, err = Parse(b[:10])
	assert.EqualError(t, err, "textmodel: weights have 10 bytes, want 131072")
}
