package safety

import (
	"regexp"
	"slices"
	"strings"
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
// messages, no place where a trigger matches a reading is left out, and
// the anchored trigger tried there (on its window, span.go) finds the
// matches a search of the whole reading finds.
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
		checkFlatIndex(t, r, spaceOut(text))
	}
}

// FuzzTriggerIndex: the index never leaves out a place where a trigger matches.
func FuzzTriggerIndex(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	r, err := NewDefaultRules()
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, text string) {
		checkTriggerIndex(t, r, text)
		checkFlatIndex(t, r, text)
	})
}

func checkTriggerIndex(t *testing.T, r *Rules, text string) {
	t.Helper()
	texts := readings(text)
	c := r.triggers.find(texts)
	for i, e := range r.entries {
		if c.everywhere[i] {
			continue
		}
		for k, norm := range texts {
			all := e.trigger().FindAllStringIndex(norm, -1)
			for _, loc := range all {
				if c.at[i] == nil || !slices.Contains(c.at[i][k], loc[0]) {
					t.Fatalf("%s matches %q at %d, and the index left it out", e.ID, norm, loc[0])
				}
			}
			var at []int
			if c.at[i] != nil {
				at = c.at[i][k]
			}
			if got := e.matchesAt(norm, at); len(all) > 0 && !slices.EqualFunc(got, all, slices.Equal) {
				t.Fatalf("%s in %q: matches %v where the index and its windows found, %v in the whole text", e.ID, norm, got, all)
			}
		}
	}
}

// spaceOut puts a space between all the letters of text ("k i l l").
func spaceOut(text string) string {
	return strings.Join(strings.Split(text, ""), " ")
}

// checkFlatIndex: every entry whose flat trigger matches the flat reading
// of text is one the flat index says may.
func checkFlatIndex(t *testing.T, r *Rules, text string) {
	t.Helper()
	f, ok := flatReading(split(text))
	if !ok {
		return
	}
	fr := r.flat()
	c := fr.triggers.find([]string{f.s})
	for i, rule := range fr.rules {
		for _, re := range []*regexp.Regexp{rule.stems, rule.words} {
			if re != nil && re.MatchString(f.s) && !c.may(i) {
				t.Fatalf("%s matches the flat reading %q, and the flat index left it out", r.entries[i].ID, f.s)
			}
		}
	}
}

// The index looks prefixes up by their first maxKeyLen bytes, or by fewer
// when one prefix of the lexicon is shorter: one pattern that may begin
// " ai" made it three for every trigger, and ran more of them on every
// message. Patterns keep a longer literal start ("(ии|ai|бот) у которого",
// not "(ии|ai|бот)\S* у которого").
func TestTheEmbeddedLexiconKeepsTheLongestIndexKey(t *testing.T) {
	r, err := NewDefaultRules()
	require.NoError(t, err)
	assert.Equal(t, maxKeyLen, r.triggers.keyLen)
}
