package safety

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPrefixesOf(t *testing.T) {
	tests := []struct {
		expr string
		want []string // nil: every text is searched
	}{
		{` (?:kill|murder)`, []string{" kill", " murder"}},
		{` (?:stab(s|bing|bed)? )`, []string{" stab ", " stabbed ", " stabbing ", " stabs "}},
		{` (?:(a |the )?bomb)`, []string{" a bomb", " bomb", " the bomb"}},
		{` (?:взрывн\S* устройств)`, []string{" взрыв"}}, // cut to 12 bytes, on a character
		{`(?:x*)`, nil},
		{`.abc`, nil},
		{`(?i)kill`, nil},
		{` (?:\x{FFFD}x)`, nil},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, prefixesOf(tc.expr), tc.expr)
	}
}

// TestTriggerIndexKeepsMatches: over the labelled sets and the hostile
// messages, no trigger that matches a reading is left out.
func TestTriggerIndexKeepsMatches(t *testing.T) {
	var texts []string
	for _, file := range []string{"safety_labelled.jsonl", "safety_holdout.jsonl"} {
		for _, l := range loadLabelled(t, file) {
			texts = append(texts, l.Text)
		}
	}
	r, err := NewDefaultRules()
	require.NoError(t, err)
	for _, text := range append(texts, hostile...) {
		checkTriggerIndex(t, r, text)
	}
}

// FuzzTriggerIndex: the index never leaves out a trigger that matches.
func FuzzTriggerIndex(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	r, err := NewDefaultRules()
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, text string) { checkTriggerIndex(t, r, text) })
}

func checkTriggerIndex(t *testing.T, r *Rules, text string) {
	t.Helper()
	texts := readings(text)
	may := r.triggers.mayMatch(texts)
	for i, e := range r.entries {
		if !may[i] && slices.ContainsFunc(texts, e.trigger.MatchString) {
			t.Fatalf("%s matches %q, and the index left it out", e.ID, texts)
		}
	}
}
