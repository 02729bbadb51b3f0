package tables

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/sgrtest/filetest"
)

// TestAcceptExampleChanges: a threshold moved in a DMN file and in a JSON
// file changes the rule an example selects; LoadChanges lists both, Load
// refuses them, and once accepted the files load. The DMN file keeps every
// other byte, the JSON file its mode.
func TestAcceptExampleChanges(t *testing.T) {
	dir := t.TempDir()
	exportDMN(t, fixtureSet(t), dir)
	require.NoError(t, os.Remove(filepath.Join(dir, "T-2.dmn")))
	dmn := filepath.Join(dir, "T-1.dmn")
	filetest.Replace(t, dmn, "&gt;= 30<", "&gt;= 20<", "&lt; 30<", "&lt; 20<")
	before, err := os.ReadFile(dmn)
	require.NoError(t, err)
	def := priority()
	def.Rules[0].Inputs[0] = "> 6" // 6 open tickets no longer escalate
	data, err := json.MarshalIndent(def, "", "  ")
	require.NoError(t, err)
	js := filepath.Join(dir, "t2.json")
	require.NoError(t, os.WriteFile(js, data, 0o600))

	changes, err := fixtureSet(t).LoadChanges(dir)
	require.NoError(t, err)
	require.Len(t, changes, 2)
	assert.Equal(t, ExampleChange{File: dmn, Table: "T-1", Example: 3, Inputs: map[string]any{"weight": 29.0, "zone": "home", "express": true},
		Was: 3, Now: 2, WasOutputs: map[string]string{"carrier": "courier", "tier": "express"},
		NowOutputs: map[string]string{"carrier": "freight", "tier": "heavy"}}, changes[0])
	assert.Equal(t, js+": T-2 example 1 (open_tickets=6 plan=enterprise): rule 1 (escalate=true) → rule 2 (escalate=false)", changes[1].String())
	err = fixtureSet(t).Load(dir)
	assert.ErrorContains(t, err, dmn+": T-1 example 3 (express=true weight=29 zone=home) selects rule 2, not rule 3 (and 1 more)")

	require.NoError(t, AcceptExampleChanges(changes))
	after, err := os.ReadFile(dmn)
	require.NoError(t, err)
	assert.Equal(t, strings.Replace(string(before), `rule="3">{weight: 29,`, `rule="2">{weight: 29,`, 1), string(after), "only the rule attribute changes")
	info, err := os.Stat(js)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), "the file keeps its mode")
	require.NoError(t, fixtureSet(t).Load(dir), "the tables load again")
}

func TestAcceptExampleChangesRefusesNoRule(t *testing.T) {
	err := AcceptExampleChanges([]ExampleChange{{File: "x.dmn", Table: "T-1", Example: 1, Was: 1, Now: 0}})
	assert.EqualError(t, err, "x.dmn: T-1 example 1 selects no rule; fix the table, not the example")
	err = AcceptExampleChanges([]ExampleChange{{Table: "T-1", Example: 2, Was: 1, Now: 2}})
	assert.EqualError(t, err, "T-1 example 2: no file to record it in")
}
