package offline

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// allPhrases are every phrase list of the engine.
func allPhrases() []phrases {
	out := []phrases{purchase, opinionSection, asksOpinion, factSection}
	for _, r := range requestRules {
		out = append(out, r.phrases)
	}
	for _, r := range kindRules {
		out = append(out, r.phrases)
	}
	for _, r := range sectionFor {
		out = append(out, r)
	}
	return out
}

// regexpOf is the regular expression the phrases stand for: what they
// must match exactly as.
func regexpOf(ps phrases) *regexp.Regexp {
	var alts []string
	for _, p := range ps {
		alt := regexp.QuoteMeta(p.text)
		if p.boundBefore {
			alt = `\b` + alt
		}
		if p.bound {
			alt += `\b`
		}
		if p.opens {
			alt = `^[ \t\n\f\r]*` + alt
		}
		alts = append(alts, alt)
	}
	return regexp.MustCompile(strings.Join(alts, "|"))
}

func TestPhrases(t *testing.T) {
	ps := newPhrases(`\bfit`, `^is\b`, "как ", `\bhow to\b`)
	for _, c := range []struct {
		text string
		want bool
	}{
		{"Does it fit the X4?", true},
		{"a profit", false},      // \b before: "fit" inside a word
		{"profit and fit", true}, // the second occurrence holds
		{"  Is it waterproof?", true},
		{"isolation", false},  // \b after ^is
		{"what is it", false}, // ^: only at the start
		{"Как настроить?", true},
		{"how to", true},
		{"show tons", false},
		{"", false},
	} {
		require.Equal(t, c.want, ps.match(lowered(c.text)), c.text)
	}
}

func TestNewPhrasesRefusesMalformed(t *testing.T) {
	for _, bad := range []string{"", "Upper", `\b-x`, `x-\b`, "^"} {
		require.Panics(t, func() { newPhrases(bad) }, bad)
	}
}

func TestRequestType(t *testing.T) {
	for _, c := range []struct {
		text string
		want contracts.RequestType
	}{
		{"Hello!", contracts.RequestCasual},
		{"  thank you.", contracts.RequestCasual},
		{"The export fails with an error", contracts.RequestTroubleshoot},
		{"What is DT-001?", contracts.RequestDataDefinition},
		{"How do I configure the safety guard?", contracts.RequestHowtoPolicy},
		{"Как настроить единый вход?", contracts.RequestHowtoPolicy},
		{"Tell me about sessions", contracts.RequestKnowledgeQA},
	} {
		require.Equal(t, c.want, requestType(c.text), c.text)
	}
}

// FuzzPhrases: every phrase list of the engine matches a lower-cased text
// exactly when the regular expression it stands for does.
func FuzzPhrases(f *testing.F) {
	for _, s := range []string{"How do I configure the safety guard?", "HELLO!", "Thank You", "What IS a table",
		"it doesn't work", "DISABLE the Guard", "error_code", "howto", "_enable_", "Set Up", "How MANY people fit?",
		"  Is It Waterproof", "RETURN policy", "Does it work WITH the X4?", "I bought the one I liked", "есть ли гарантия"} {
		f.Add(s)
	}
	lists := allPhrases()
	oracles := make([]*regexp.Regexp, len(lists))
	for i, ps := range lists {
		oracles[i] = regexpOf(ps)
	}
	f.Fuzz(func(t *testing.T, s string) {
		low := lowered(s)
		for i, ps := range lists {
			if want, got := oracles[i].MatchString(string(low)), ps.match(low); got != want {
				t.Fatalf("%s on %q: phrases %v, regexp %v", oracles[i], s, got, want)
			}
		}
	})
}

// TestAsksOpinion: a specification named "recommended" or "rating" is a
// fact asked for, not what people think.
func TestAsksOpinion(t *testing.T) {
	for text, want := range map[string]bool{
		"What is the recommended load capacity of the backpack?": false,
		"What is the temperature rating of the sleeping bag?":    false,
		"Would you recommend the X4 tent?":                       true,
		"What do customers say about the stove?":                 true,
		"Какие отзывы о палатке?":                                true,
	} {
		require.Equal(t, want, asksOpinion.match(lowered(text)), text)
	}
}
