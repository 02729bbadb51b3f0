package decisions

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/tables"
)

// TestAcceptExampleChangesInJSON: a JSON table (the form `tables --json`
// prints) whose threshold moved has its changed example recorded, and
// loads again; the DMN path is the CLI's test.
func TestAcceptExampleChangesInJSON(t *testing.T) {
	std, err := Standard(DefaultConfig())
	require.NoError(t, err)
	dt2, err := std.Get("DT-002")
	require.NoError(t, err)
	def := *dt2
	def.Rules = append([]tables.Rule(nil), dt2.Rules...)
	for i, r := range def.Rules {
		ins := append([]string(nil), r.Inputs...)
		for j, c := range ins {
			switch c {
			case ">= 0.6":
				ins[j] = ">= 0.5"
			case "< 0.6":
				ins[j] = "< 0.5"
			}
		}
		def.Rules[i].Inputs = ins
	}
	def.Examples = append([]tables.Example(nil), dt2.Examples...)
	data, err := json.MarshalIndent(def, "", "  ")
	require.NoError(t, err)
	dir := t.TempDir()
	path := filepath.Join(dir, "dt2.json")
	require.NoError(t, os.WriteFile(path, data, 0o600))

	changes, err := ExampleChangesIn(DefaultConfig(), dir)
	require.NoError(t, err)
	require.Len(t, changes, 1)
	c := changes[0]
	assert.Equal(t, path, c.File)
	assert.Equal(t, 2, c.Was)
	assert.Equal(t, 1, c.Now)
	assert.Equal(t, "clarify", c.WasOutputs["action"])
	assert.Equal(t, "normal", c.NowOutputs["action"])

	require.NoError(t, tables.AcceptExampleChanges(changes))
	info, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), "the file keeps its mode")
	changes, err = ExampleChangesIn(DefaultConfig(), dir)
	require.NoError(t, err)
	assert.Empty(t, changes)
	cfg := DefaultConfig()
	cfg.Dir = dir
	_, err = Standard(cfg)
	assert.NoError(t, err, "the tables load again")
}
