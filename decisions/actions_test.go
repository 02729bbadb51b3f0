package decisions_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/decisions"
)

// TestRoutingActionsAreTheContractsActions: DT-002's action column gives
// exactly contracts.Actions, in order, so an action added to one and not
// the other fails here; the graph's routes are checked against the table
// when it compiles.
func TestRoutingActionsAreTheContractsActions(t *testing.T) {
	set, err := decisions.Standard(decisions.DefaultConfig())
	require.NoError(t, err)
	dt2, err := set.Get("DT-002")
	require.NoError(t, err)
	var want []string
	for _, a := range contracts.Actions() {
		want = append(want, string(a))
	}
	var actions, templates []string
	for _, r := range dt2.Rules {
		actions, templates = append(actions, r.Outputs[0]), append(templates, r.Outputs[1])
	}
	assert.Equal(t, "action", dt2.Outputs[0].Name)
	assert.Equal(t, want, actions, "one rule per action, in the order of contracts.Actions")
	assert.Equal(t, "template", dt2.Outputs[1].Name)
	assert.Equal(t, want, templates, "each action renders the template of its name")
}
