package offline

import (
	"strings"
	"testing"
)

// caselessRules are every caseless pattern of the engine.
func caselessRules() []caseless {
	var out []caseless
	for _, r := range requestRules {
		out = append(out, r.re)
	}
	for _, r := range kindRules {
		out = append(out, r.re)
	}
	for _, r := range sectionFor {
		out = append(out, r)
	}
	return append(out, opinionSection, asksOpinion, factSection)
}

// TestCaselessRulesAreLowerCase: what lets an ASCII text be matched
// lower-cased and without case folding.
func TestCaselessRulesAreLowerCase(t *testing.T) {
	for _, r := range caselessRules() {
		if p := r.lower.String(); strings.ToLower(p) != p {
			t.Errorf("pattern %q is not in lower case", p)
		}
	}
}

// FuzzRequestRules: on ASCII text each caseless pattern matches the text
// lower-cased exactly when it matches the text regardless of case.
func FuzzRequestRules(f *testing.F) {
	for _, s := range []string{"How do I configure the safety guard?", "HELLO!", "Thank You", "What IS a table",
		"it doesn't work", "DISABLE the Guard", "Kelvin K and long s", "error_code", "howto", "_enable_", "Set Up",
		"How MANY people fit?", "Is It Waterproof", "RETURN policy", "Does it work WITH the X4?"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if !isASCII(text) {
			return
		}
		for _, r := range caselessRules() {
			if want, got := r.any.MatchString(text), r.match(lowered(text)); got != want {
				t.Fatalf("%s on %q: %v lower-cased, %v regardless of case", r.lower, text, got, want)
			}
		}
	})
}
