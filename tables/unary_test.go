package tables

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestUnaryTests(t *testing.T) {
	tests := []struct {
		text  string
		pass  []any
		fails []any
	}{
		{"-", []any{0.0, "x"}, nil},
		{"< 0.7", []any{0.69, 0.0}, []any{0.7, 0.9}},
		{"<= 0.7", []any{0.7}, []any{0.71}},
		{"> 0", []any{0.1}, []any{0.0}},
		{">= 0.6", []any{0.6, 1.0}, []any{0.59}},
		{"= 1", []any{1.0}, []any{0.0}},
		{"1", []any{1.0}, []any{2.0}},
		{"[0.3..0.7)", []any{0.3, 0.5}, []any{0.7, 0.29}},
		{"(0.3..0.7]", []any{0.7}, []any{0.3}},
		{"[0.3..0.7]", []any{0.3, 0.7}, []any{0.71}},
		{"(0.3..0.7)", []any{0.5}, []any{0.3, 0.7}},
		{"]0.3..0.7[", []any{0.5}, []any{0.3, 0.7}},
		{`"Unsafe"`, []any{"Unsafe"}, []any{"Safe", "unsafe"}},
		{`"Safe","Controversial"`, []any{"Safe", "Controversial"}, []any{"Unsafe"}},
		{`"a, b","c"`, []any{"a, b", "c"}, []any{"a"}},
		{`not("Unsafe")`, []any{"Safe", "Unknown"}, []any{"Unsafe"}},
		{`not("a","b")`, []any{"c"}, []any{"a", "b"}},
		{`not(< 0.5)`, []any{0.5, 0.9}, []any{0.4}},
		{"true", []any{"true"}, []any{"false"}},
		{"1, 2", []any{1.0, 2.0}, []any{3.0}},
		{`"say \"hi\", then go","c"`, []any{`say "hi", then go`, "c"}, []any{`say \"hi\"`, "then go"}},
		{`not("a\\",",")`, []any{"a", "b"}, []any{`a\`, ","}},
		{"1e-400", []any{0.0}, []any{1e-300}},
	}
	for _, tc := range tests {
		t.Run(tc.text, func(t *testing.T) {
			u, err := parseUnary(tc.text)
			require.NoError(t, err)
			for _, v := range tc.pass {
				assert.True(t, u.matches(v), "%v should pass", v)
			}
			for _, v := range tc.fails {
				assert.False(t, u.matches(v), "%v should fail", v)
			}
		})
	}
}

func TestUnaryTestErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"<< 1", `"< 1" is not a number`},
		{"< NaN", `"NaN" is not a finite number`},
		{"[0..Inf]", `"Inf" is not a finite number`},
		{">= -1e400", `"-1e400" is not a finite number`},
		{"abc", `"abc" is not a number`},
		{`"open`, "bad string"},
		{"[1..0]", "low end above high end"},
		{"[1,2]", "bad range"},
		{"not(-)", "cannot negate"},
		{`"a",`, "empty entry"},
	} {
		_, err := parseUnary(tc.text)
		assert.ErrorContains(t, err, tc.want, tc.text)
	}
}

// TestUnaryRendersCanonically: entries that test the same thing render the
// same, and the rendering parses back to the same test.
func TestUnaryRendersCanonically(t *testing.T) {
	for _, tc := range []struct {
		texts []string
		want  string
	}{
		{[]string{"-", "  ", ""}, "-"},
		{[]string{"1", "= 1", "=1", " 1.0 "}, "1"},
		{[]string{"< 0.7", "<0.7", "< 7e-1"}, "< 0.7"},
		{[]string{"]0.3..0.7[", "(0.3..0.7)", "( 0.3 .. 0.7 )"}, "(0.3..0.7)"},
		{[]string{"[0..1]"}, "[0..1]"},
		{[]string{`"Safe","Controversial"`, `"Safe" , "Controversial"`}, `"Safe","Controversial"`},
		{[]string{`not( "a" )`, `not("a")`}, `not("a")`},
		{[]string{"true", `"true"`}, "true"},
		{[]string{`"a\"b"`}, `"a\"b"`},
		{[]string{`1, "x", >= 2`, `"x", 1, >= 2`}, `"x",1,>= 2`},
	} {
		for _, text := range tc.texts {
			u, err := parseUnary(text)
			require.NoError(t, err, text)
			assert.Equal(t, tc.want, u.String(), text)
			back, err := parseUnary(u.String())
			require.NoError(t, err, u.String())
			assert.Equal(t, u, back, text)
		}
	}
}

// TestLintComparesTestsNotTheirSpelling: a row that repeats an earlier row's
// entries in other spelling is as unreachable as an exact copy.
func TestLintComparesTestsNotTheirSpelling(t *testing.T) {
	tbl, err := New(Table{ID: "T", Inputs: []Column{{Name: "x", Type: TypeNumber}, {Name: "s", Type: TypeString}},
		Outputs: []Column{{Name: "o", Type: TypeString}}, Rules: []Rule{
			{Inputs: []string{"< 1", `"a","b"`}, Outputs: []string{"first"}},
			{Inputs: []string{"<1", `"a", "b"`}, Outputs: []string{"second"}},
		}})
	require.NoError(t, err)
	assert.Equal(t, []string{"T row 2 is unreachable: row 1 already matches every case it matches"}, Lint(tbl))
}

// FuzzSplitList: the parts cut from an entry are what copying it rune by
// rune into each part gives (splitListByRunes, the reference).
func FuzzSplitList(f *testing.F) {
	for _, s := range []string{`"a","b"`, `"a,b", c`, `"a\",b",c`, `<1, [2..3]`, `"x\\",y`, "\xff,\"\xfe,\"", ` , `, ``} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		assert.Equal(t, splitListByRunes(s), splitList(s), "%q", s)
	})
}

// splitListByRunes is splitList copying each part rune by rune.
func splitListByRunes(s string) []string {
	var parts []string
	var cur strings.Builder
	quoted, escaped := false, false
	for _, r := range s {
		switch {
		case escaped:
			escaped = false
			cur.WriteRune(r)
		case quoted && r == '\\':
			escaped = true
			cur.WriteRune(r)
		case r == '"':
			quoted = !quoted
			cur.WriteRune(r)
		case r == ',' && !quoted:
			parts = append(parts, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteRune(r)
		}
	}
	return append(parts, strings.TrimSpace(cur.String()))
}
