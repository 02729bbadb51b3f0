package tables

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// shipping and priority are the tables the engine's tests run on: every
// column type, a listed string, a free string, ranges and a threshold,
// complete and with no unreachable row, each rule with an example.
func shipping() Table {
	return Table{
		ID: "T-1", Name: "shipping", Title: "Shipping", Description: "Which carrier takes a parcel.",
		Inputs: []Column{
			{Name: "weight", Type: TypeNumber, Range: "[0..100]"},
			{Name: "zone", Type: TypeString, Values: []string{"home", "abroad", "unknown"}},
			{Name: "express", Type: TypeBool},
		},
		Outputs: []Column{{Name: "carrier", Type: TypeString}, {Name: "tier", Type: TypeString}},
		Rules: []Rule{
			{Inputs: []string{"-", `"unknown"`, "-"}, Outputs: []string{"hold", "none"}, Annotation: "no address"},
			{Inputs: []string{">= 30", `"home","abroad"`, "-"}, Outputs: []string{"freight", "heavy"}},
			{Inputs: []string{"< 30", `"home"`, "true"}, Outputs: []string{"courier", "express"}},
			{Inputs: []string{"< 30", `"home"`, "false"}, Outputs: []string{"post", "standard"}},
			{Inputs: []string{"< 30", `"abroad"`, "-"}, Outputs: []string{"post", "international"}},
		},
		Examples: []Example{
			{Rule: 1, Inputs: map[string]any{"weight": 1.0, "zone": "unknown", "express": true}},
			{Rule: 2, Inputs: map[string]any{"weight": 30.0, "zone": "home", "express": false}},
			{Rule: 3, Inputs: map[string]any{"weight": 29.0, "zone": "home", "express": true}},
			{Rule: 4, Inputs: map[string]any{"weight": 2.5, "zone": "home", "express": false}},
			{Rule: 5, Inputs: map[string]any{"weight": 0.0, "zone": "abroad", "express": true}},
		},
	}
}

func priority() Table {
	return Table{
		ID: "T-2", Name: "priority", Title: "Priority",
		Inputs:  []Column{{Name: "open_tickets", Type: TypeNumber, Range: ">= 0"}, {Name: "plan", Type: TypeString}},
		Outputs: []Column{{Name: "escalate", Type: TypeBool}},
		Rules: []Rule{
			{Inputs: []string{"> 5", `"enterprise"`}, Outputs: []string{"true"}},
			{Inputs: []string{"-", "-"}, Outputs: []string{"false"}},
		},
		Examples: []Example{
			{Rule: 1, Inputs: map[string]any{"open_tickets": 6, "plan": "enterprise"}},
			{Rule: 2, Inputs: map[string]any{"open_tickets": 5, "plan": "enterprise"}},
		},
	}
}

func fixtureSet(t testing.TB) *Set {
	t.Helper()
	s, err := NewSet(shipping(), priority())
	require.NoError(t, err)
	return s
}

// exportDMN writes every table of s as DIR/ID.dmn.
func exportDMN(t *testing.T, s *Set, dir string) {
	t.Helper()
	for _, tbl := range s.All() {
		data, err := tbl.DMN()
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, tbl.ID+".dmn"), data, 0o644))
	}
}
