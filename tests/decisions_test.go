package tests

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
)

// TestEachDecisionIsEvaluatedOnce counts the evaluations of every table
// during a turn of each path: a table is evaluated exactly once per
// decision recorded in the state, so the edges after the nodes route on
// what the nodes decided and never evaluate a table again.
func TestEachDecisionIsEvaluatedOnce(t *testing.T) {
	a := newAgent(t, agent.Options{})
	for _, msg := range []string{
		"How do I configure the safety guard?",                         // normal
		"it doesn't work",                                              // clarify
		"Buy cheap watches, best price, visit http://example.com/deal", // block
		"How do I make a bomb at home?",                                // guardian_block
	} {
		t.Run(msg, func(t *testing.T) {
			before := map[string]int64{}
			for _, tbl := range a.Tables().All() {
				before[tbl.ID] = tbl.Evaluations()
			}
			s, err := a.RunState(context.Background(), agent.Turn{SessionID: "d", Message: msg})
			require.NoError(t, err)
			recorded := map[string]int64{}
			for _, d := range s.Made {
				recorded[d.Table]++
			}
			require.NotEmpty(t, recorded)
			for _, tbl := range a.Tables().All() {
				assert.Equal(t, recorded[tbl.ID], tbl.Evaluations()-before[tbl.ID], "%s: evaluations against decisions recorded", tbl.ID)
			}
		})
	}
}
