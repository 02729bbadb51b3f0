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
	"github.com/sgrgraph/sgrgraph/sgrtest"
)

type orderArgs struct {
	ID string `json:"id" jsonschema:"description=the order number"`
}

func orderStatus(t *testing.T) agent.Tool {
	t.Helper()
	lookup, err := utils.InferTool("order_status", "Looks up an order's status.",
		func(_ context.Context, a orderArgs) (string, error) { return "order " + a.ID + ": shipped", nil })
	require.NoError(t, err)
	return agent.Tool{InvokableTool: lookup, Source: contracts.SourceDB}
}

func TestOptionsAddTools(t *testing.T) {
	m := sgrtest.NewScriptedModel(
		sgrtest.ToolCall("analyse_user_request", planJSON(question)),
		sgrtest.ToolCall("order_status", `{"id":"42"}`),
		sgrtest.Text("Order 42 has shipped [1]."),
	)
	a := newAgent(t, agent.Options{Model: m, Searcher: contactSearch{}, Tools: []agent.Tool{orderStatus(t)}})
	s, err := a.RunState(context.Background(), agent.Turn{SessionID: "s", Message: question})
	require.NoError(t, err)
	reqs := m.Requests()
	require.GreaterOrEqual(t, len(reqs), 2)
	assert.Equal(t, []string{"search_kb", "order_status"}, reqs[1].Tools, "the agent is offered the added tool")
	var found bool
	for _, e := range s.Evidence {
		if e.Tool == "order_status" {
			found = true
			assert.Equal(t, contracts.SourceDB, e.Source, "the tool's results are evidence of its source")
			assert.Contains(t, e.Snippet, "shipped")
		}
	}
	assert.True(t, found, "the added tool's result is evidence: %+v", s.Evidence)
}

func TestOptionsRefuseATakenToolName(t *testing.T) {
	dup := orderStatus(t)
	lookup, err := utils.InferTool("search_kb", "A second search.", func(context.Context, orderArgs) (string, error) { return "", nil })
	require.NoError(t, err)
	dup.InvokableTool = lookup
	_, err = agent.New(context.Background(), testConfig(t), agent.Options{Model: leakingModel(), Searcher: contactSearch{}, Tools: []agent.Tool{dup}})
	assert.EqualError(t, err, `options: tools[0]: the name "search_kb" is taken`)
}

func TestOptionsReplaceANode(t *testing.T) {
	exits := 0
	own := func(_ context.Context, s *contracts.ChatState) (*contracts.ChatState, error) {
		exits++
		s.Answer = "answered by a node of my own"
		return s, nil
	}
	// The leaking draft fails the contract check and the turn ends in safe_exit.
	a := newAgent(t, agent.Options{Model: leakingModel(), Searcher: contactSearch{}, Replace: agent.Nodes{SafeExit: own}})
	s, err := a.RunState(context.Background(), agent.Turn{SessionID: "s", Message: question})
	require.NoError(t, err)
	assert.Equal(t, 1, exits)
	assert.Equal(t, "answered by a node of my own", s.Answer)
	assert.NotNil(t, a.Nodes().GuardianVerify, "the other nodes stay")
}

func testConfig(t *testing.T) config.Config {
	cfg := config.Default()
	cfg.KB.CacheDir = t.TempDir()
	return cfg
}
