package agent_test

import (
	"context"
	"testing"

	"github.com/cloudwego/eino/components/tool/utils"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/contracts"
)

type policyArgs struct {
	Topic string `json:"topic"`
}

// A tool of Options with a QueryArgument is one the offline engine calls
// with its searches, as it calls search_kb; its answers are evidence of
// its source. Without one the engine leaves it alone.
func TestOfflineEngineCallsToolsWithAQueryArgument(t *testing.T) {
	lookup, err := utils.InferTool("lookup_policy", "Looks a policy up by topic.",
		func(_ context.Context, a policyArgs) (string, error) {
			return "Policy on " + a.Topic + ": the security team decides.", nil
		})
	require.NoError(t, err)
	for _, arg := range []string{"topic", ""} {
		a, err := agent.New(context.Background(), testConfig(t), agent.Options{Tools: []agent.Tool{
			{InvokableTool: lookup, Source: contracts.SourcePolicy, QueryArgument: arg}}})
		require.NoError(t, err)
		res, err := a.Run(context.Background(), agent.Turn{Message: "How do I configure the safety guard?"})
		require.NoError(t, err)
		a.Close()
		var policy []string
		for _, e := range res.Evidence {
			if e.Source == contracts.SourcePolicy {
				policy = append(policy, e.Snippet)
			}
		}
		if arg == "" {
			assert.Empty(t, policy, "no query argument: not called")
			continue
		}
		require.NotEmpty(t, policy)
		assert.Regexp(t, `^Policy on .+: the security team decides\.$`, policy[0])
	}
}

// A server of tools.mcp that cannot be reached fails New, naming it.
func TestNewNamesAnUnreachableMCPServer(t *testing.T) {
	cfg := testConfig(t)
	cfg.Tools.MCP = []config.MCPServer{{Name: "ghost", Source: "db", Command: "no-such-mcp-server", Attempts: 1}}
	_, err := agent.New(context.Background(), cfg, agent.Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `config: tools.mcp: mcp server "ghost": connect (no-such-mcp-server)`)
}
