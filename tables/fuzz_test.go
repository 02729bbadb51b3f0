package tables

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzUnary: parsing never panics, and a test that parses renders to a
// canonical text that parses back to the same test and renders the same.
func FuzzUnary(f *testing.F) {
	for _, seed := range []string{
		"-", "", "< 0.7", "<= 0.7", "> 0", ">= 0.6", "= 1", "1", "1, 2", "[0.3..0.7)", "(0.3..0.7]", "]0.3..0.7[",
		`"Unsafe"`, `"Safe","Controversial"`, `"a, b","c"`, `not("Unsafe")`, `not(< 0.5)`, "true", "false",
		`"say \"hi\", then go","c"`, `not("a\\",",")`, "-0", "1e-400", "0x1p-2", "1_000",
		// hostile
		"<< 1", "abc", `"open`, "[1..0]", "[1,2]", "not(-)", `"a",`, ",", "not()", "not(not(1))", "[NaN..1]", "< Inf",
		"1e400", "[1...2]", "[..]", "(1..2(", `not("a"),not("b")`, "\x00", `"\xff"`, `"\u2028"`, "not(", ")", `"a"b`,
	} {
		f.Add(seed)
	}
	for _, tbl := range fixtureSet(f).All() {
		for _, r := range tbl.Rules {
			for _, in := range r.Inputs {
				f.Add(in)
			}
		}
		for _, c := range tbl.Inputs {
			f.Add(c.Range)
		}
	}
	f.Fuzz(func(t *testing.T, text string) {
		u, err := parseUnary(text)
		if err != nil {
			return
		}
		rendered := u.String()
		back, err := parseUnary(rendered)
		require.NoError(t, err, "%q renders as %q, which does not parse", text, rendered)
		require.Equal(t, u, back, "%q renders as %q, which parses to another test", text, rendered)
		require.Equal(t, rendered, back.String(), "rendering is not canonical")
		for _, n := range u.numbers {
			require.False(t, math.IsNaN(n.value) || math.IsInf(n.value, 0) || math.IsNaN(n.lo) || math.IsNaN(n.hi) ||
				math.IsInf(n.lo, 0) || math.IsInf(n.hi, 0), "%q has a bound that is not finite", text)
			require.True(t, n.op != "range" || n.lo <= n.hi, "%q: low end above high end", text)
		}
	})
}
