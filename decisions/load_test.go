package decisions

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/sgrtest/filetest"
	"github.com/sgrgraph/sgrgraph/tables"
)

// exportDMN writes every standard table as DIR/ID.dmn.
func exportDMN(t *testing.T, dir string) {
	t.Helper()
	set, err := Standard(DefaultConfig())
	require.NoError(t, err)
	for _, tbl := range set.All() {
		data, err := tbl.DMN()
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, tbl.ID+".dmn"), data, 0o644))
	}
}

// TestDMNFilesValidate checks the written files against the DMN 1.3 XML
// schema (../tables/testdata/dmn13, OMG's XSDs) with xmllint.
func TestDMNFilesValidate(t *testing.T) {
	xmllint, err := exec.LookPath("xmllint")
	require.NoError(t, err, "xmllint validates the DMN files against the DMN 1.3 schema: apt-get install libxml2-utils")
	dir := t.TempDir()
	exportDMN(t, dir)
	files, err := filepath.Glob(filepath.Join(dir, "*.dmn"))
	require.NoError(t, err)
	require.Len(t, files, 6)
	args := append([]string{"--noout", "--nonet", "--schema", filepath.Join("..", "tables", "testdata", "dmn13", "DMN13.xsd")}, files...)
	out, err := exec.Command(xmllint, args...).CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Equal(t, 6, strings.Count(string(out), " validates"), "%s", out)
}

func TestLoadEditedTables(t *testing.T) {
	dir := t.TempDir()
	exportDMN(t, dir)
	dt002 := filepath.Join(dir, "DT-002.dmn")
	cfg := DefaultConfig()
	cfg.Dir = dir

	// An analyst lowers the spam threshold from 0.7 to 0.5, and forgets an example.
	filetest.Replace(t, dt002, "&lt; 0.7<", "&lt; 0.5<", "&gt;= 0.7<", "&gt;= 0.5<")
	_, err := Standard(cfg)
	require.Error(t, err)
	assert.Contains(t, err.Error(), dt002)
	assert.Contains(t, err.Error(), "DT-002 example 6 (")
	assert.Contains(t, err.Error(), "selects rule 3, not rule 2")

	// With the example moved too, the table loads and routes at the new threshold.
	filetest.Replace(t, dt002, "{spam_score: 0.69,", "{spam_score: 0.49,", "{spam_score: 0.7,", "{spam_score: 0.5,")
	set, err := Standard(cfg)
	require.NoError(t, err)
	tbl, err := set.Get("DT-002")
	require.NoError(t, err)
	res, err := tbl.Evaluate(map[string]any{"spam_score": 0.6, "intent_confidence": 0.9, "guardian_level": "Safe"})
	require.NoError(t, err)
	assert.Equal(t, "block", res.Get("action"))
}

func TestLoadRefusesBrokenTables(t *testing.T) {
	for _, tc := range []struct {
		name   string
		pairs  []string
		remove string // a regular expression of text to take out
		want   []string
	}{
		{"a cell that is not FEEL", []string{"&lt; 0.7<", "&lt; seven<"}, "", []string{"DT-002 rule 1 column spam_score"}},
		{"an output the turn does not know", []string{`<text>"clarify"</text>`, `<text>"ask_again"</text>`}, "",
			[]string{"DT-002 rule 2 column action", `"ask_again" is not a value the turn knows`}},
		{"a renamed input", []string{"<text>spam_score</text>", "<text>spam</text>", "{spam_score:", "{spam:"}, "",
			[]string{"DT-002: input 1 is spam (number); the turn gives spam_score (number) there"}},
		{"a row taken out", nil, `(?s)<rule id="DT-002_rule2">.*?</rule>\s*`, []string{"DT-002 has a gap: no rule matches"}},
		{"the default hit policy", []string{` hitPolicy="FIRST"`, ""}, "", []string{"hit policy UNIQUE"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			exportDMN(t, dir)
			path := filepath.Join(dir, "DT-002.dmn")
			filetest.Replace(t, path, tc.pairs...)
			if tc.remove != "" {
				filetest.Cut(t, path, tc.remove)
			}
			cfg := DefaultConfig()
			cfg.Dir = dir
			_, err := Standard(cfg)
			require.Error(t, err)
			assert.Contains(t, err.Error(), path)
			for _, w := range tc.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}

// The JSON of `sgrgraph tables --json` loads back as it is.
func TestLoadJSON(t *testing.T) {
	set, err := Standard(DefaultConfig())
	require.NoError(t, err)
	data, err := json.Marshal(set.All())
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "all.json"), data, 0o644))
	cfg := DefaultConfig()
	cfg.Dir = dir
	loaded, err := Standard(cfg)
	require.NoError(t, err)
	for i, tbl := range loaded.All() {
		assert.Equal(t, set.All()[i].Rules, tbl.Rules)
	}

	require.NoError(t, os.WriteFile(filepath.Join(dir, "DT-002.dmn"), mustDMN(t, set.All()[1]), 0o644))
	_, err = Standard(cfg)
	assert.ErrorContains(t, err, "table DT-002 is in")
	require.NoError(t, os.Remove(filepath.Join(dir, "DT-002.dmn")))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "x.json"), []byte(`{"id":"DT-009","rules":[]}`), 0o644))
	_, err = Standard(cfg)
	assert.ErrorContains(t, err, `table "DT-009" is not a table of the turn (DT-001, DT-002`)
}

func mustDMN(t *testing.T, tbl *tables.Table) []byte {
	t.Helper()
	data, err := tbl.DMN()
	require.NoError(t, err)
	return data
}
