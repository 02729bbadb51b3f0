package decisions

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/tables"
)

// TestDMNRoundTrip: every standard table written as DMN reads back as the
// same table, and is written again byte for byte.
func TestDMNRoundTrip(t *testing.T) {
	set, err := Standard(DefaultConfig())
	require.NoError(t, err)
	for _, tbl := range set.All() {
		t.Run(tbl.ID, func(t *testing.T) {
			first, err := tbl.DMN()
			require.NoError(t, err)
			parsed, err := tables.ParseDMN(first)
			require.NoError(t, err)
			back, err := tables.New(parsed)
			require.NoError(t, err)
			assert.Equal(t, tbl.ID, back.ID)
			assert.Equal(t, tbl.Name, back.Name)
			assert.Equal(t, tbl.Title, back.Title)
			assert.Equal(t, tbl.Rules, back.Rules)
			assert.Equal(t, len(tbl.Examples), len(back.Examples))
			for i, e := range tbl.Examples {
				assert.Equal(t, e.Rule, back.Examples[i].Rule)
				for name, v := range e.Inputs {
					assert.EqualValues(t, v, back.Examples[i].Inputs[name], "example %d input %s", i+1, name)
				}
			}
			for i, c := range tbl.Inputs {
				assert.Equal(t, c, back.Inputs[i])
			}
			again, err := back.DMN()
			require.NoError(t, err)
			assert.Equal(t, string(first), string(again))
		})
	}
}

func TestStandardTablesHaveNoGaps(t *testing.T) {
	set, err := Standard(DefaultConfig())
	require.NoError(t, err)
	for _, tbl := range set.All() {
		assert.Empty(t, tables.Gaps(tbl), tbl.ID)
	}
}

func TestGapsNamesTheInputs(t *testing.T) {
	def := sgrRouting(DefaultConfig())
	def.Rules = append(def.Rules[:1], def.Rules[2:]...) // no clarify row
	def.Examples = nil
	tbl, err := tables.New(def)
	require.NoError(t, err)
	gaps := tables.Gaps(tbl)
	require.NotEmpty(t, gaps)
	assert.Contains(t, gaps[0], "DT-002 has a gap: no rule matches")
	assert.Contains(t, gaps[0], "intent_confidence=0")
}
