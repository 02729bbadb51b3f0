package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTablesCheckAndAcceptAnEditedThreshold is the analyst's path: DT-002
// written as DMN, its clarify threshold moved from 0.6 to 0.5 as a modeler
// would (the examples are not shown there), start-up refuses and names the
// commands, --check lists the example whose outcome changed and exits 1,
// --accept records it, and the tables load again with the new threshold.
func TestTablesCheckAndAcceptAnEditedThreshold(t *testing.T) {
	dir := t.TempDir()
	_, _, err := run(t, "tables", "--dmn", dir)
	require.NoError(t, err)
	for _, id := range []string{"DT-001", "DT-003", "DT-004", "DT-005", "DT-006"} {
		require.NoError(t, os.Remove(filepath.Join(dir, id+".dmn")))
	}
	path := filepath.Join(dir, "DT-002.dmn")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	edited := strings.Replace(strings.Replace(string(data), "&gt;= 0.6<", "&gt;= 0.5<", 1), "&lt; 0.6<", "&lt; 0.5<", 1)
	require.NotEqual(t, string(data), edited, "the threshold cells are where the test expects them")
	require.NoError(t, os.WriteFile(path, []byte(edited), 0o644))
	cfg := filepath.Join(t.TempDir(), "sgrgraph.yaml")
	require.NoError(t, os.WriteFile(cfg, []byte("tables:\n  dir: "+dir+"\n"), 0o644))

	_, _, err = run(t, "--config", cfg, "decide", "DT-002", "spam_score=0.1", "intent_confidence=0.55", "guardian_level=Safe")
	require.Error(t, err, "start-up refuses a table whose examples changed")
	assert.Contains(t, err.Error(), "DT-002 example 5")
	assert.Contains(t, err.Error(), "sgrgraph tables --check "+dir)
	assert.Contains(t, err.Error(), "sgrgraph tables --accept "+dir)

	out, _, err := run(t, "--config", cfg, "tables", "--check", dir)
	require.Error(t, err, "--check exits 1 while an example changed")
	assert.Equal(t, path+": DT-002 example 5 (guardian_level=Safe intent_confidence=0.59 spam_score=0.2): "+
		"rule 2 (action=clarify, flow=Wait, template=clarify) → rule 1 (action=normal, flow=Continue, template=normal)\n", out)
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, edited, string(after), "--check changes nothing")

	out, _, err = run(t, "tables", "--accept", dir)
	require.NoError(t, err)
	assert.Contains(t, out, "DT-002 example 5")
	assert.Contains(t, out, "recorded the new rule of 1 example(s)")
	after, err = os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, strings.Replace(edited,
		`rule="2">{spam_score: 0.2, intent_confidence: 0.59`, `rule="1">{spam_score: 0.2, intent_confidence: 0.59`, 1),
		string(after), "only the changed example's rule attribute moved")

	out, _, err = run(t, "--config", cfg, "decide", "DT-002", "spam_score=0.1", "intent_confidence=0.55", "guardian_level=Safe")
	require.NoError(t, err)
	assert.Contains(t, out, "= normal", "the new threshold routes")
	out, _, err = run(t, "tables", "--check", dir)
	require.NoError(t, err)
	assert.Equal(t, "every example selects its rule\n", out)
}

// TestTablesAcceptRefusesWhatLintRefuses: accepting examples is no way
// past the other checks; a table with a gap is refused by both commands
// and left as it was.
func TestTablesAcceptRefusesWhatLintRefuses(t *testing.T) {
	dir := t.TempDir()
	_, _, err := run(t, "tables", "--dmn", dir)
	require.NoError(t, err)
	path := filepath.Join(dir, "DT-002.dmn")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	gap := strings.Replace(string(data), "&gt;= 0.6<", "&gt;= 0.65<", 1) // [0.6, 0.65) now falls through
	require.NoError(t, os.WriteFile(path, []byte(gap), 0o644))
	for _, flag := range []string{"--check", "--accept"} {
		_, _, err := run(t, "tables", flag, dir)
		require.Error(t, err, flag)
		assert.Contains(t, err.Error(), "gap", flag)
	}
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, gap, string(after))
	_, _, err = run(t, "tables", "--check", dir, "--accept", dir)
	assert.EqualError(t, err, "--check and --accept: give one")
}
