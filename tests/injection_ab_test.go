package tests

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/contracts"
)

// TestInjectionModesDoNotSkewTheOfflineEngine: the offline engine searches
// before it answers in every injection mode. The plan that directive and
// trace put in the context as a tool-call pair is not a search of its own;
// counting it as one made those modes answer unsearched and retry once.
func TestInjectionModesDoNotSkewTheOfflineEngine(t *testing.T) {
	questions := []string{"How do I configure the safety guard?", "Как настроить фильтр безопасности?",
		"What is a decision table and how do I print one?", "How do I run a batch of requests from a spreadsheet?"}
	for _, mode := range []string{"synthetic", "directive", "trace"} {
		t.Run(mode, func(t *testing.T) {
			a := newAgent(t, agent.Options{}, func(c *config.Config) { c.Agent.Injection = mode })
			for _, q := range questions {
				s, err := a.RunState(context.Background(), agent.Turn{SessionID: mode + q, Message: q})
				require.NoError(t, err)
				require.NotNil(t, s.Verdict, q)
				assert.Equal(t, contracts.VerdictPass, s.Verdict.Verdict, q)
				assert.Zero(t, s.RetryCount, "%s: no retry in mode %s", q, mode)
				assert.NotEmpty(t, s.Evidence, "%s: the first attempt searched", q)
			}
		})
	}
}
