package safety

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSpanSpaces(t *testing.T) {
	tests := []struct {
		expr string
		want int
	}{
		{` (?:kill|murder)`, 1},
		{` (?:stab(s|bing|bed)? )`, 2},
		{` (?:(a |the )?bomb)`, 2},
		{` (?:взрывн\S* устройств)`, 2},
		{` (?:you are (now )?(\S+ ){0,2}without)`, 6},
		{` (?:a[ x]b)`, 2},
		{` (?:a.*b)`, -1},  // a wildcard may cross any number of spaces
		{` (?:( x)+)`, -1}, // so may a repeated space
		{` (?:kill\b)`, -1},
		{` (?:x{2,})`, 1},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, spanSpaces(tc.expr), tc.expr)
	}
}

func TestWindowHoldsTheWordsAMatchCanSpan(t *testing.T) {
	norm := " how do i kill my neighbour now "
	assert.Equal(t, " kill", window(norm, 9, 1))
	assert.Equal(t, " kill my", window(norm, 9, 2))
	assert.Equal(t, " kill my neighbour now ", window(norm, 9, 9))
	assert.Equal(t, " kill my neighbour now ", window(norm, 9, -1))
}
