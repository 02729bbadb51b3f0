package tables

import (
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

func BenchmarkEvaluateDT002(b *testing.B) {
	s, _ := Standard(DefaultConfig())
	dt, _ := s.Get("DT-002")
	in := map[string]any{"spam_score": 0.2, "intent_confidence": 0.9, "guardian_level": "Safe"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := dt.Evaluate(in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEvaluateVerdict(b *testing.B) {
	s, _ := Standard(DefaultConfig())
	dt, _ := s.Get("DT-005")
	in := map[string]any{"policy_ok": true, "evidence_ok": true, "evidence_items": 2, "contract_ok": true, "track": "QUALITY", "retry_count": 0}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := dt.Evaluate(in); err != nil {
			b.Fatal(err)
		}
	}
}
