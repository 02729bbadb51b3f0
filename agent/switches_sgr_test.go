package agent_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/nodes"
	"github.com/sgrgraph/sgrgraph/sgrtest"
)

// directModel searches and answers, with no planning call.
func directModel() *sgrtest.ScriptedModel {
	return sgrtest.NewScriptedModel(
		sgrtest.ToolCall("search_kb", `{"query":"support contact"}`),
		sgrtest.Text("Write to the support address on the contact page [1]."),
	)
}

func planned(m *sgrtest.ScriptedModel) bool {
	for _, r := range m.Requests() {
		if r.Offers("analyse_user_request") {
			return true
		}
	}
	return false
}

// With sgr.enabled false the agent answers directly, and DT-002 still
// routes: spam 0 and confidence 1 without a plan, with the guard's level.
func TestSGRDisabledAnswersDirectly(t *testing.T) {
	m := directModel()
	a := newAgent(t, agent.Options{Model: m, Searcher: contactSearch{}}, func(c *config.Config) { c.SGR.Enabled = false })
	s, err := a.RunState(context.Background(), agent.Turn{SessionID: "d", Message: question})
	require.NoError(t, err)
	assert.False(t, planned(m), "no planning call")
	assert.Nil(t, s.Plan)
	rule, in := decided(s, "DT-002")
	assert.Equal(t, 1, rule)
	assert.Equal(t, map[string]any{"spam_score": 0.0, "intent_confidence": 1.0, "guardian_level": "Safe"}, in)
	assert.Equal(t, contracts.ActionNormal, s.Action)
	assert.NotEmpty(t, s.QueryTraces, "the agent searched")
	assert.Contains(t, s.Answer, "contact page")
	assert.Contains(t, fmt.Sprint(s.Diagnostics.Notes), "sgr.enabled: false")
}

// Without a plan an Unsafe message the guard only reports is still
// stopped by DT-002's guardian_block row.
func TestSGRDisabledStillRoutesOnTheGuard(t *testing.T) {
	m := directModel()
	a := newAgent(t, agent.Options{Model: m, Searcher: contactSearch{}, Classifier: &unsafeClassifier{}}, func(c *config.Config) {
		c.SGR.Enabled = false
		c.Guard.Mode = "report"
	})
	s, err := a.RunState(context.Background(), agent.Turn{SessionID: "d", Message: bombQuestion})
	require.NoError(t, err)
	rule, _ := decided(s, "DT-002")
	assert.Equal(t, 4, rule)
	assert.Equal(t, contracts.ActionGuardianBlock, s.Action)
	assert.Empty(t, m.Requests(), "no model call")
}

// sessionOn finds a session id on the wanted side of a rollout.
func sessionOn(t *testing.T, percent int, in bool) string {
	t.Helper()
	for i := range 1000 {
		id := fmt.Sprintf("rollout-%d", i)
		if nodes.InRollout("session:"+id, percent) == in {
			return id
		}
	}
	t.Fatalf("no session on side %v of %d%%", in, percent)
	return ""
}

// sgr.rollout_percent sends a session's turns down one path, always the
// same one.
func TestSGRRolloutPicksBySession(t *testing.T) {
	for _, in := range []bool{true, false} {
		id := sessionOn(t, 50, in)
		for range 2 {
			m := directModel()
			if in {
				m = sgrtest.NewScriptedModel(sgrtest.ToolCall("analyse_user_request", planJSON(question)),
					sgrtest.ToolCall("search_kb", `{"query":"support contact"}`), sgrtest.Text("Write to the contact page [1]."))
			}
			a := newAgent(t, agent.Options{Model: m, Searcher: contactSearch{}}, func(c *config.Config) { c.SGR.RolloutPercent = 50 })
			s, err := a.RunState(context.Background(), agent.Turn{SessionID: id, Message: question})
			require.NoError(t, err)
			assert.Equal(t, in, planned(m), "session %s", id)
			assert.Equal(t, in, s.Plan != nil, "session %s", id)
		}
	}
}

func TestSGRRolloutPercentIsValidated(t *testing.T) {
	for _, p := range []int{-1, 101} {
		c := config.Default()
		c.SGR.RolloutPercent = p
		assert.ErrorContains(t, c.Validate(), fmt.Sprintf("sgr.rollout_percent: %d is outside 0..100", p))
	}
}
