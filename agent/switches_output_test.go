package agent_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/config"
)

// Run's result carries the searches the agent ran, with their hits, only
// when output.include_query_traces or the turn asks for them.
func TestIncludeQueryTraces(t *testing.T) {
	for _, c := range []struct {
		name         string
		config, turn bool
	}{{"default", false, false}, {"config", true, false}, {"turn", false, true}} {
		t.Run(c.name, func(t *testing.T) {
			a := newAgent(t, agent.Options{Model: directModel(), Searcher: contactSearch{}},
				func(cfg *config.Config) { cfg.SGR.Enabled, cfg.Output.IncludeQueryTraces = false, c.config })
			res, err := a.Run(context.Background(), agent.Turn{SessionID: "q", Message: question, QueryTraces: c.turn})
			require.NoError(t, err)
			if !c.config && !c.turn {
				assert.NotNil(t, res.QueryTraces, "an empty list, not null")
				assert.Empty(t, res.QueryTraces)
				return
			}
			require.Len(t, res.QueryTraces, 1)
			assert.Equal(t, "support contact", res.QueryTraces[0].Query)
			assert.NotEmpty(t, res.QueryTraces[0].Articles, "with what the search found")
		})
	}
}
