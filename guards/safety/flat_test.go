package safety

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/contracts"
)

func TestFlatSource(t *testing.T) {
	tests := []struct{ in, want string }{
		{"at home", "at(?: )?home"},
		{"bombs? ", "bombs?(?: )?"},
		{"you are", "you(?: )?are"},           // a phrase long enough
		{"how to", "how to"},                  // short words, short phrase
		{"(rob |rob a)", "(rob(?: )?|rob a)"}, // "roba" would be in "probably"
		{`взрывн\S* устройств`, `взрывн\S{0,16}(?: )?устройств`},
		{`(\S+ ){0,2}x{2,}`, `(\S{1,16}(?: )?){0,2}x{2,18}`},
		{"[ *]a [[:space:]+]b", "[ *]a(?: )?[[:space:]+]b"}, // a class is as written
		{"[] *]", "[] *]"},
		{`a\ b`, `a\ b`}, {`\Qa b+\E`, `\Qa b+\E`}, // so are an escape and quoted text
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, flatSource(tc.in), tc.in)
	}
}

// TestFlatWithAReplacedLexicon: the flat reading is driven by the lexicon,
// its near and unless terms and the whole-word mark of a trailing space.
func TestFlatWithAReplacedLexicon(t *testing.T) {
	r := rulesOf(t, `version: 1
entries:
  - id: pii.cake
    category: PII
    level: Controversial
    match: ['cake ']
    near: [['recipe']]
    unless: ['cheese']
`)
	tests := []struct {
		text  string
		level contracts.SafetyLevel
	}{
		{"m y c a k e r e c i p e", contracts.LevelControversial}, // another term ends the whole word
		{"a r e c i p e f o r a c a k e", contracts.LevelControversial},
		{"c h e e s e c a k e r e c i p e", contracts.LevelSafe}, // unless cancels
		{"m y c a k e s h o p r e c i p e", contracts.LevelSafe}, // no word is seen to end after "cake"
		{"m y c a k e", contracts.LevelSafe},                     // near is required
		{"my cakes recipe", contracts.LevelSafe},                 // ordinary text is read as words
	}
	for _, tc := range tests {
		m, err := r.Classify(context.Background(), tc.text)
		require.NoError(t, err)
		assert.Equal(t, tc.level, m.Level, tc.text)
	}
}
