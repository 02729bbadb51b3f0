package tables

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
)

// TestDMNRoundTrip: a table written as DMN reads back as the same table,
// and is written again byte for byte.
func TestDMNRoundTrip(t *testing.T) {
	for _, tbl := range fixtureSet(t).All() {
		t.Run(tbl.ID, func(t *testing.T) {
			first, err := tbl.DMN()
			require.NoError(t, err)
			parsed, err := ParseDMN(first)
			require.NoError(t, err)
			back, err := New(parsed)
			require.NoError(t, err)
			assert.Equal(t, []string{tbl.ID, tbl.Name, tbl.Title, tbl.Description}, []string{back.ID, back.Name, back.Title, back.Description})
			assert.Equal(t, tbl.Rules, back.Rules)
			assert.Equal(t, tbl.Inputs, back.Inputs)
			require.Len(t, back.Examples, len(tbl.Examples))
			for i, e := range tbl.Examples {
				assert.Equal(t, e.Rule, back.Examples[i].Rule)
				for name, v := range e.Inputs {
					assert.EqualValues(t, v, back.Examples[i].Inputs[name], "example %d input %s", i+1, name)
				}
			}
			again, err := back.DMN()
			require.NoError(t, err)
			assert.Equal(t, string(first), string(again))
		})
	}
}

// TestDMNFilesValidate checks written files against the DMN 1.3 XML schema
// (testdata/dmn13, OMG's XSDs) with xmllint.
func TestDMNFilesValidate(t *testing.T) {
	xmllint, err := exec.LookPath("xmllint")
	require.NoError(t, err, "xmllint validates the DMN files against the DMN 1.3 schema: apt-get install libxml2-utils")
	dir := t.TempDir()
	exportDMN(t, fixtureSet(t), dir)
	files, err := filepath.Glob(filepath.Join(dir, "*.dmn"))
	require.NoError(t, err)
	require.Len(t, files, 2)
	args := append([]string{"--noout", "--nonet", "--schema", filepath.Join("testdata", "dmn13", "DMN13.xsd")}, files...)
	out, err := exec.Command(xmllint, args...).CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Equal(t, 2, strings.Count(string(out), " validates"), "%s", out)
}

// TestLoadEditedTables: an edited threshold whose examples moved with it
// replaces the set's table.
func TestLoadEditedTables(t *testing.T) {
	dir := t.TempDir()
	s := fixtureSet(t)
	exportDMN(t, s, dir)
	path := filepath.Join(dir, "T-1.dmn")
	filetest.Replace(t, path, "&gt;= 30<", "&gt;= 40<", "&lt; 30<", "&lt; 40<", "{weight: 30,", "{weight: 40,")
	require.NoError(t, s.Load(dir))
	tbl, err := s.Get("T-1")
	require.NoError(t, err)
	res, err := tbl.Evaluate(map[string]any{"weight": 35, "zone": "home", "express": true})
	require.NoError(t, err)
	assert.Equal(t, "courier", res.Get("carrier"))

	_, err = fixtureSet(t).LoadChanges(filepath.Join(dir, "missing"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}

func TestLoadRefusesBrokenTables(t *testing.T) {
	for _, tc := range []struct {
		name   string
		pairs  []string
		remove string // a regular expression of text to take out
		want   []string
	}{
		{"a cell that is not FEEL", []string{"&lt; 30<", "&lt; thirty<"}, "", []string{"T-1 rule 3 column weight"}},
		{"an output the graph does not know", []string{`<text>"post"</text>`, `<text>"pigeon"</text>`}, "",
			[]string{"T-1 rule 4 column carrier", `"pigeon" is not a value the turn knows`}},
		{"a renamed input", []string{"<text>weight</text>", "<text>mass</text>", "{weight:", "{mass:"}, "",
			[]string{"T-1: input 1 is mass (number); the turn gives weight (number) there"}},
		{"another range", []string{"[0..100]", "[0..50]"}, "", []string{`T-1: input weight has the range "[0..50]"; the turn gives values in "[0..100]"`}},
		{"a value taken out", []string{`"home","abroad","unknown"`, `"home","abroad"`}, `(?s)<rule id="T-1_rule1">.*?</rule>\s*`,
			[]string{`T-1: input zone allows "home", "abroad"; the turn gives "home", "abroad", "unknown"`}},
		{"a row taken out", nil, `(?s)<rule id="T-1_rule5">.*?</rule>\s*`, []string{"T-1 has a gap: no rule matches"}},
		{"the default hit policy", []string{` hitPolicy="FIRST"`, ""}, "", []string{"hit policy UNIQUE"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			exportDMN(t, fixtureSet(t), dir)
			path := filepath.Join(dir, "T-1.dmn")
			filetest.Replace(t, path, tc.pairs...)
			if tc.remove != "" {
				filetest.Cut(t, path, tc.remove)
			}
			err := fixtureSet(t).Load(dir)
			require.Error(t, err)
			assert.Contains(t, err.Error(), path)
			for _, w := range tc.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}

// The JSON the set prints loads back as it is; a table given twice, or one
// the set does not hold, is refused.
func TestLoadJSON(t *testing.T) {
	s := fixtureSet(t)
	data, err := json.Marshal(s.All())
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "all.json"), data, 0o644))
	loaded := fixtureSet(t)
	require.NoError(t, loaded.Load(dir))
	for i, tbl := range loaded.All() {
		assert.Equal(t, s.All()[i].Rules, tbl.Rules)
		assert.NotSame(t, s.All()[i], tbl)
	}

	data, err = s.All()[1].DMN()
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "T-2.dmn"), data, 0o644))
	assert.ErrorContains(t, fixtureSet(t).Load(dir), "table T-2 is in")
	require.NoError(t, os.Remove(filepath.Join(dir, "T-2.dmn")))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "x.json"), []byte(`{"id":"T-9","rules":[]}`), 0o644))
	assert.ErrorContains(t, fixtureSet(t).Load(dir), `table "T-9" is not a table of the turn (T-1, T-2)`)
}
