package tables

import (
	"encoding/json"
	"maps"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewRejectsBadDomains(t *testing.T) {
	out := []Column{{Name: "o", Type: TypeString}}
	tests := []struct {
		name string
		col  Column
		want string
	}{
		{"range on a string", Column{Name: "x", Type: TypeString, Range: "[0..1]"}, `T: column x: range "[0..1]" applies to number columns only, not to string`},
		{"values on a bool", Column{Name: "x", Type: TypeBool, Values: []string{"yes"}}, "T: column x: values apply to string columns only, not to bool"},
		{"values on a number", Column{Name: "x", Type: TypeNumber, Values: []string{"1"}}, "T: column x: values apply to string columns only, not to number"},
		{"range not a test", Column{Name: "x", Type: TypeNumber, Range: "0..1"}, `T: column x: range "0..1": "0..1" is not a number`},
		{"range of strings", Column{Name: "x", Type: TypeNumber, Range: `"a"`}, `T: column x: range "\"a\"": want a test over numbers such as [0..1] or >= 0`},
		{"range allowing anything", Column{Name: "x", Type: TypeNumber, Range: "-"}, `T: column x: range "-": want a test over numbers`},
		{"range with an infinite bound", Column{Name: "x", Type: TypeNumber, Range: "[0..Inf]"}, `T: column x: range "[0..Inf]": "Inf" is not a finite number`},
	}
	for _, tc := range tests {
		_, err := New(Table{ID: "T", Inputs: []Column{tc.col}, Outputs: out, Rules: []Rule{{Inputs: []string{"-"}, Outputs: []string{"a"}}}})
		assert.ErrorContains(t, err, tc.want, tc.name)
	}
}

// TestInputsRefuseValuesOutsideTheirDomain: a value outside a column's
// range, not listed, NaN or an infinity is refused by name and limit, by
// Evaluate and by ParseInputs alike.
func TestInputsRefuseValuesOutsideTheirDomain(t *testing.T) {
	s := fixtureSet(t)
	valid := map[string]map[string]any{
		"T-1": {"weight": 1.0, "zone": "home", "express": true},
		"T-2": {"open_tickets": 0, "plan": "free"},
	}
	for _, tc := range []struct {
		table, input string
		value        any
		want         string
	}{
		{"T-1", "weight", -5.0, "weight: -5 is outside its range [0..100]"},
		{"T-1", "weight", "-5", "weight: -5 is outside its range [0..100]"},
		{"T-1", "weight", 100.0000001, "weight: 100.0000001 is outside its range [0..100]"},
		{"T-1", "weight", "Inf", "weight: Inf is not a finite number"},
		{"T-1", "weight", "1e400", "weight: 1e400 is not a finite number"},
		{"T-1", "weight", math.Inf(-1), "weight: -Inf is not a finite number"},
		{"T-1", "weight", "NaN", "weight: NaN is not a finite number"},
		{"T-1", "weight", math.NaN(), "weight: NaN is not a finite number"},
		{"T-1", "weight", "heavy", "weight: heavy is not a number"},
		{"T-1", "zone", "moon", `zone: "moon" is not one of "home", "abroad", "unknown"`},
		{"T-1", "express", "maybe", "express: maybe is not true or false"},
		{"T-2", "open_tickets", -1, "open_tickets: -1 is outside its range >= 0"},
	} {
		t.Run(tc.table+" "+tc.input, func(t *testing.T) {
			dt, err := s.Get(tc.table)
			require.NoError(t, err)
			in := maps.Clone(valid[tc.table])
			_, err = dt.Evaluate(in)
			require.NoError(t, err, "the inputs around the bad one are valid")
			in[tc.input] = tc.value
			_, err = dt.Evaluate(in)
			assert.EqualError(t, err, tc.table+": input "+tc.want)
			if text, ok := tc.value.(string); ok {
				_, err = ParseInputs(dt, []string{tc.input + "=" + text})
				assert.EqualError(t, err, tc.want, "the command line is refused the same way")
			}
		})
	}
}

// TestTablesPrintTheirDomains: Markdown names what each input accepts, and
// a table read back from JSON keeps its domains.
func TestTablesPrintTheirDomains(t *testing.T) {
	s := fixtureSet(t)
	t1, t2 := s.All()[0], s.All()[1]
	assert.Contains(t, t1.Markdown(), "Inputs:\n\n- `weight`: a number [0..100]\n- `zone`: one of \"home\", \"abroad\", \"unknown\"\n- `express`: true or false\n")
	assert.Contains(t, t2.Markdown(), "- `open_tickets`: a number >= 0\n- `plan`: any string\n")
	assert.Equal(t, "any finite number", Column{Type: TypeNumber}.Domain())

	b, err := json.Marshal(t1)
	require.NoError(t, err)
	assert.Contains(t, string(b), `{"name":"weight","type":"number","range":"[0..100]"}`)
	var back Table
	require.NoError(t, json.Unmarshal(b, &back))
	again, err := New(back)
	require.NoError(t, err)
	_, err = again.Evaluate(map[string]any{"weight": 101, "zone": "home", "express": true})
	assert.ErrorContains(t, err, "weight: 101 is outside its range [0..100]")
}
