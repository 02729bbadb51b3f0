package eval

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const floorsDoc = "# Eval\n\n| figure | floor |\n|---|---|\n| `elsewhere.f1` | ≥ 0.5 |\n\n" +
	"## Floors\n\n| figure | floor | why |\n|---|---|---|\n| `s.guard_f1` | ≥ 0.90 | F1 |\n| `s.lookalike_fpr` | <= 0.1 | |\n| `s.mrr` | >= 0.5 | |\n\n## After\n\n| `later.x` | ≥ 1 |\n"

func TestParseFloors(t *testing.T) {
	floors, err := ParseFloors(floorsDoc)
	require.NoError(t, err)
	assert.Equal(t, []Floor{{"s.guard_f1", ">=", 0.9}, {"s.lookalike_fpr", "<=", 0.1}, {"s.mrr", ">=", 0.5}}, floors,
		"only the table under ## Floors")

	_, err = ParseFloors("## Floors\n\n| `s.f1` | about 0.9 |\n")
	assert.EqualError(t, err, "floors, line 3: `s.f1`: bound \"about 0.9\": want ≥ or ≤ and a number")
	_, err = ParseFloors("## Floors\n\n| `s.f1` | ≥ high |\n")
	assert.ErrorContains(t, err, "not a number after ≥")
	_, err = ParseFloors("# nothing here\n")
	assert.EqualError(t, err, `floors: no table of floors under "## Floors"`)
}

func TestCheck(t *testing.T) {
	floors := []Floor{{"s.guard_f1", ">=", 0.9}, {"s.lookalike_fpr", "<=", 0.1}, {"s.mrr", ">=", 0.5}}
	tests := []struct {
		name    string
		figures []Figure
		want    []string
	}{
		{"all kept, equal counts as kept", []Figure{{"s.guard_f1", 0.9, ">="}, {"s.lookalike_fpr", 0.1, "<="}, {"s.mrr", 1, ">="}}, nil},
		{"one below, one above", []Figure{{"s.guard_f1", 0.85, ">="}, {"s.lookalike_fpr", 0.2, "<="}, {"s.mrr", 1, ">="}},
			[]string{"s.guard_f1 = 0.850, below its floor 0.900", "s.lookalike_fpr = 0.200, above its ceiling 0.100"}},
		{"a figure no set produced", []Figure{{"s.guard_f1", 1, ">="}, {"s.lookalike_fpr", 0, "<="}},
			[]string{"s.mrr: not measured (no set produced it), floor >= 0.500"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, b := range Check(tc.figures, floors) {
				got = append(got, b.String())
			}
			assert.Equal(t, tc.want, got)
		})
	}
}
