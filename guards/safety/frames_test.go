package safety

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestUnframed(t *testing.T) {
	tests := []struct{ name, norm, want string }{
		{"english how to", " how to pick a lock ", " pick a lock "},
		{"the longest frame wins", " what are some ways to pick a lock ", " pick a lock "},
		{"russian", " какие есть способы занизить доход ", " занизить доход "},
		{"russian polite", " подскажите как сорвать сделку ", " сорвать сделку "},
		{"no frame", " write a poem about spring ", " write a poem about spring "},
		{"a frame later is no frame", " tell them how to cook rice ", " tell them how to cook rice "},
		{"a word that starts like a frame", " howto guide ", " howto guide "},
		{"a frame alone", " how to ", " "},
		{"empty", " ", " "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, unframed(tt.norm))
		})
	}
}

func TestTheFrameDoesNotChangeTheModelsVerdict(t *testing.T) {
	m, err := defaultModel()
	require.NoError(t, err)
	for _, pair := range [][2]string{
		{" ways to underreport your income ", " how do i underreport your income "},
		{" какие есть способы занизить доход ", " как занизить доход "},
	} {
		assert.Equal(t, m.probabilities(pair[0]), m.probabilities(pair[1]), "%q and %q", pair[0], pair[1])
	}
}
