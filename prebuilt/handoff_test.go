package prebuilt_test

import (
	"context"
	"testing"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/graph"
	"github.com/sgrgraph/sgrgraph/prebuilt"
	"github.com/sgrgraph/sgrgraph/sgrtest"
)

// supervisor builds a parent graph: triage, an agent that may hand off to
// billing, another agent; triage's own answers end the run.
func supervisor(t *testing.T, triage, billing *sgrtest.ScriptedModel, dests ...string) *graph.Runnable[*prebuilt.MessagesState] {
	t.Helper()
	ctx := context.Background()
	to, err := prebuilt.HandoffTool("billing", "Hand billing questions to the billing agent.")
	require.NoError(t, err)
	ta, err := prebuilt.NewAgent[*prebuilt.MessagesState](ctx, triage, []tool.BaseTool{to}, prebuilt.WithName[*prebuilt.MessagesState]("triage"))
	require.NoError(t, err)
	ba, err := prebuilt.NewAgent[*prebuilt.MessagesState](ctx, billing, nil, prebuilt.WithName[*prebuilt.MessagesState]("billing"))
	require.NoError(t, err)
	sub := graph.Subgraph(ta)
	r, err := graph.New[*prebuilt.MessagesState]("support").
		AddNode("triage", func(ctx context.Context, s *prebuilt.MessagesState) (*prebuilt.MessagesState, error) {
			out, err := sub(ctx, s)
			if err == nil && prebuilt.HandedTo(out.Messages) == "" {
				graph.Goto(ctx, graph.END) // triage answered itself
			}
			return out, err
		}, graph.WithDestinations(append(dests, graph.END)...)).
		AddNode("billing", graph.Subgraph(ba)).
		AddEdge(graph.START, "triage").
		AddEdge("billing", graph.END).
		Compile(ctx)
	require.NoError(t, err)
	return r
}

func TestHandoff(t *testing.T) {
	triage := sgrtest.NewScriptedModel(sgrtest.ToolCall("transfer_to_billing", "{}"), sgrtest.Text("never asked"))
	billing := sgrtest.NewScriptedModel(sgrtest.Text("Your invoice is paid."))
	r := supervisor(t, triage, billing, "billing")
	out, err := r.Invoke(context.Background(), &prebuilt.MessagesState{Messages: []*schema.Message{schema.UserMessage("Is my invoice paid?")}})
	require.NoError(t, err)
	assert.Equal(t, []string{
		"user: Is my invoice paid?",
		"assistant transfer_to_billing",
		"tool transfer_to_billing: Transferred to billing.",
		"assistant: Your invoice is paid.",
	}, roles(out.Messages))
	assert.Len(t, triage.Requests(), 1, "triage's graph ends at its tool node: its model is not asked again")
	req := billing.Requests()
	require.Len(t, req, 1)
	assert.Len(t, req[0].Messages, 3, "billing sees the conversation with the hand-off")
	assert.Equal(t, "billing", prebuilt.HandedTo(out.Messages))
	answer, err := prebuilt.LastAnswer(out.Messages)
	require.NoError(t, err)
	assert.Equal(t, "Your invoice is paid.", answer)
}

func TestHandoffNotNeeded(t *testing.T) {
	triage := sgrtest.NewScriptedModel(sgrtest.Text("Hello! Ask me about billing."))
	billing := sgrtest.NewScriptedModel()
	r := supervisor(t, triage, billing, "billing")
	out, err := r.Invoke(context.Background(), &prebuilt.MessagesState{Messages: []*schema.Message{schema.UserMessage("hi")}})
	require.NoError(t, err)
	assert.Equal(t, []string{"user: hi", "assistant: Hello! Ask me about billing."}, roles(out.Messages))
	assert.Empty(t, billing.Requests())
	assert.Empty(t, prebuilt.HandedTo(out.Messages))
}

func TestHandoffUndeclared(t *testing.T) {
	triage := sgrtest.NewScriptedModel(sgrtest.ToolCall("transfer_to_billing", "{}"), sgrtest.Text("never asked"))
	r := supervisor(t, triage, sgrtest.NewScriptedModel()) // triage may not go to billing
	_, err := r.Invoke(context.Background(), &prebuilt.MessagesState{Messages: []*schema.Message{schema.UserMessage("Is my invoice paid?")}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "WithDestinations")
}

func TestHandoffToolRefuses(t *testing.T) {
	_, err := prebuilt.HandoffTool("", "")
	require.Error(t, err)
	ht, err := prebuilt.HandoffTool("docs", "")
	require.NoError(t, err)
	info, err := ht.Info(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "transfer_to_docs", info.Name)
	assert.Equal(t, "Transfer the conversation to docs.", info.Desc)
	out, err := ht.InvokableRun(context.Background(), "{}") // outside a graph: it only answers
	require.NoError(t, err)
	assert.Equal(t, "Transferred to docs.", out)
}
