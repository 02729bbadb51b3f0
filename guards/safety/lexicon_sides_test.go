package safety

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLexiconEntriesFireInBothLanguages counts, over the Russian and English
// versions of the training split's messages, the entries that fire in one
// version only. An English pattern whose Russian side knows one form of a
// verb ("steal" beside "украсть" but not "воровать") judges a pair apart
// wherever the model would have agreed: the held-out agreement rose from
// 0.922 to 0.932 when 218 of these were mended. The ceiling keeps a new
// entry from writing one language only.
func TestLexiconEntriesFireInBothLanguages(t *testing.T) {
	all, err := LoadExamples("testdata/train")
	require.NoError(t, err)
	r, err := NewDefaultRules()
	require.NoError(t, err)
	lexicon := *r
	lexicon.model = nil
	fired := map[string][2]map[string]bool{} // pair → entries fired, by side
	for _, e := range all {
		key, side, ok := e.version()
		if !ok || e.HeldOut() {
			continue
		}
		m, err := lexicon.Classify(context.Background(), e.Text)
		require.NoError(t, err)
		sides := fired[key]
		if sides[side] == nil {
			sides[side] = map[string]bool{}
		}
		for _, why := range m.Reasons {
			id, _, _ := strings.Cut(why, ": ")
			sides[side][id] = true
		}
		fired[key] = sides
	}
	pairs, oneSided := 0, 0
	for _, sides := range fired {
		if sides[0] == nil || sides[1] == nil {
			continue
		}
		pairs++
		for s := range 2 {
			for id := range sides[s] {
				if !sides[1-s][id] {
					oneSided++
				}
			}
		}
	}
	t.Logf("%d entries fired in one version of %d pairs", oneSided, pairs)
	require.Greater(t, pairs, 3000)
	require.LessOrEqual(t, oneSided, 545, "entries that fire in one language only")
}
