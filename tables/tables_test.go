package tables

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLintFindsProblems(t *testing.T) {
	tbl, err := New(Table{ID: "T", Inputs: []Column{
		{Name: "level", Type: TypeString, Values: []string{"a", "b", "c"}},
		{Name: "dead", Type: TypeNumber},
	}, Outputs: []Column{{Name: "o", Type: TypeString}}, Rules: []Rule{
		{Inputs: []string{`"a","b"`, "-"}, Outputs: []string{"x"}},
		{Inputs: []string{`"b"`, "-"}, Outputs: []string{"y"}},
		{Inputs: []string{"-", "-"}, Outputs: []string{"z"}},
		{Inputs: []string{`"c"`, "-"}, Outputs: []string{"w"}},
	}})
	require.NoError(t, err)
	assert.Equal(t, []string{
		"T row 2 is unreachable: row 1 already matches every case it matches",
		"T row 4 is unreachable: row 3 already matches every case it matches",
		"T input column dead never changes the outcome",
	}, Lint(tbl))
}

func TestNewRejectsBadTables(t *testing.T) {
	cols := []Column{{Name: "x", Type: TypeNumber}}
	out := []Column{{Name: "o", Type: TypeString}}
	tests := []struct {
		name string
		tbl  Table
		want string
	}{
		{"bad syntax", Table{ID: "T", Inputs: cols, Outputs: out, Rules: []Rule{{Inputs: []string{"<< 1"}, Outputs: []string{"a"}}}}, "T rule 1 column x"},
		{"wrong arity", Table{ID: "T", Inputs: cols, Outputs: out, Rules: []Rule{{Inputs: []string{"-", "-"}, Outputs: []string{"a"}}}}, "T rule 1: has 2 inputs"},
		{"bad hit policy", Table{ID: "T", HitPolicy: "COLLECT", Inputs: cols, Outputs: out}, `hit policy "COLLECT"`},
		{"bad type", Table{ID: "T", Inputs: []Column{{Name: "x", Type: "date"}}, Outputs: out}, `column x: type "date"`},
	}
	for _, tc := range tests {
		_, err := New(tc.tbl)
		assert.ErrorContains(t, err, tc.want, tc.name)
	}
}

// TestFixtureExamples: every example of the tables the engine's tests run
// on selects its rule, each rule has one, and neither lint nor the gap
// check finds anything: the tests below start from sound tables.
func TestFixtureExamples(t *testing.T) {
	for _, tbl := range fixtureSet(t).All() {
		require.NoError(t, tbl.CheckExamples())
		covered := map[int]bool{}
		for _, e := range tbl.Examples {
			covered[e.Rule] = true
		}
		assert.Len(t, covered, len(tbl.Rules), tbl.ID)
		assert.Empty(t, Lint(tbl), tbl.ID)
		assert.Empty(t, Gaps(tbl), tbl.ID)
	}
}

func TestEvaluateErrors(t *testing.T) {
	dt, err := fixtureSet(t).Get("T-1")
	require.NoError(t, err)
	for _, tc := range []struct {
		name string
		in   map[string]any
		want string
	}{
		{"missing input", map[string]any{"weight": 1, "express": true}, "T-1: input zone is missing (inputs: weight, zone, express)"},
		{"not a number", map[string]any{"weight": "lots", "zone": "home", "express": true}, "T-1: input weight: lots is not a number"},
		{"value not allowed", map[string]any{"weight": 1, "zone": "moon", "express": true}, `T-1: input zone: "moon" is not one of "home", "abroad", "unknown"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := dt.Evaluate(tc.in)
			assert.EqualError(t, err, tc.want)
		})
	}
	res, err := dt.Evaluate(map[string]any{"weight": "12", "zone": "home", "express": "false"})
	require.NoError(t, err, "numbers and booleans may come as text")
	assert.Equal(t, Result{Table: "T-1", Rule: 4, Outputs: map[string]string{"carrier": "post", "tier": "standard"},
		Inputs: res.Inputs}, res)
	partial, err := New(Table{ID: "T", Inputs: []Column{{Name: "x", Type: TypeNumber}}, Outputs: []Column{{Name: "o", Type: TypeString}},
		Rules: []Rule{{Inputs: []string{"> 1"}, Outputs: []string{"big"}}}})
	require.NoError(t, err)
	_, err = partial.Evaluate(map[string]any{"x": 0.5})
	assert.EqualError(t, err, "T: no rule matches x=0.5")
}

func TestSetGet(t *testing.T) {
	s := fixtureSet(t)
	for _, key := range []string{"T-1", "t-1", "shipping", "SHIPPING"} {
		tbl, err := s.Get(key)
		require.NoError(t, err)
		assert.Equal(t, "T-1", tbl.ID)
	}
	_, err := s.Get("T-9")
	assert.EqualError(t, err, `table "T-9": no such table (tables: T-1 (shipping), T-2 (priority))`)
	_, err = NewSet(shipping(), priority(), shipping())
	assert.EqualError(t, err, "table T-1: given twice")
	bad := priority()
	bad.Rules[0].Inputs[0] = "> five"
	_, err = NewSet(shipping(), bad)
	assert.ErrorContains(t, err, "T-2 rule 1 column open_tickets")
}

func TestParseInputs(t *testing.T) {
	dt, err := fixtureSet(t).Get("T-1")
	require.NoError(t, err)
	in, err := ParseInputs(dt, []string{"weight=40", "express=true"})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"weight": 40.0, "express": true, "zone": nil}, in, "inputs not given are DMN's null")
	_, err = dt.Evaluate(in)
	assert.EqualError(t, err, "T-1: no rule matches express=true weight=40 zone=null", "null matches only -")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"weight"}, `"weight": want key=value`},
		{[]string{"mass=2"}, `mass: T-1 has no input "mass"`},
		{[]string{"weight=1", "weight=2"}, "weight: given twice"},
	} {
		_, err := ParseInputs(dt, tc.args)
		assert.ErrorContains(t, err, tc.want)
	}
}

func TestMarkdownAndJSON(t *testing.T) {
	dt, err := fixtureSet(t).Get("T-1")
	require.NoError(t, err)
	md := dt.Markdown()
	assert.Contains(t, md, "### T-1: Shipping\n\nWhich carrier takes a parcel.\n\n")
	assert.Contains(t, md, "| # | weight | zone | express | → carrier | → tier | annotation |\n| --- | --- | --- | --- | --- | --- | --- |\n")
	assert.Contains(t, md, `| 2 | >= 30 | "home","abroad" | - | freight | heavy |  |`)
	assert.Contains(t, md, "| 1 | - | \"unknown\" | - | hold | none | no address |")
	assert.Contains(t, md, "Hit policy: FIRST (table name `shipping`)")

	b, err := json.Marshal(dt)
	require.NoError(t, err)
	var back Table
	require.NoError(t, json.Unmarshal(b, &back))
	again, err := New(back)
	require.NoError(t, err)
	res, err := again.Evaluate(map[string]any{"weight": 30, "zone": "abroad", "express": true})
	require.NoError(t, err)
	assert.Equal(t, 2, res.Rule, "a table read back from JSON decides the same")
}
