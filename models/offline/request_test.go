package offline

import (
	"strings"
	"testing"
)

// TestRequestRulesAreLowerCase: what lets an ASCII request be matched
// lower-cased and without case folding.
func TestRequestRulesAreLowerCase(t *testing.T) {
	for _, r := range requestRules {
		if p := r.matchLower.String(); strings.ToLower(p) != p {
			t.Errorf("%s: pattern %q is not in lower case", r.rt, p)
		}
	}
}

// FuzzRequestRules: on ASCII text each rule matches the text lower-cased
// exactly when it matches the text regardless of case.
func FuzzRequestRules(f *testing.F) {
	for _, s := range []string{"How do I configure the safety guard?", "HELLO!", "Thank You", "What IS a table",
		"it doesn't work", "DISABLE the Guard", "Kelvin K and long s", "error_code", "howto", "_enable_", "Set Up"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if !isASCII(text) {
			return
		}
		for _, r := range requestRules {
			if want, got := r.match.MatchString(text), r.matchLower.MatchString(strings.ToLower(text)); got != want {
				t.Fatalf("%s on %q: %v lower-cased, %v regardless of case", r.rt, text, got, want)
			}
		}
	})
}
