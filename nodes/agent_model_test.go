package nodes

import (
	"context"
	"testing"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/models"
	"github.com/sgrgraph/sgrgraph/sgrtest"
	"github.com/sgrgraph/sgrgraph/tools"
)

func TestAgentModel(t *testing.T) {
	f := newFixtures(t)
	sgrInfo, err := tools.SGRToolInfo(tools.SGROptions{})
	require.NoError(t, err)
	search := &searchDouble{}
	tests := []struct {
		name   string
		state  func(*contracts.ChatState)
		reply  sgrtest.Reply
		choice string
		draft  string
		errors int
		iters  int
	}{
		{"first call of a planned turn must search", func(s *contracts.ChatState) {}, sgrtest.ToolCall("search_kb", `{"query":"guard"}`), "required", "", 0, 1},
		{"a retry may answer", func(s *contracts.ChatState) { s.RetryCount = 1 }, sgrtest.Text("Use guard.mode [1]."), "auto", "Use guard.mode [1].", 0, 1},
		{"no subqueries: not forced", func(s *contracts.ChatState) { s.Plan.Subqueries = nil }, sgrtest.Text("Hello."), "auto", "Hello.", 0, 1},
		{"clarify turns are not forced", func(s *contracts.ChatState) { s.Action = contracts.ActionClarify }, sgrtest.Text("Hi."), "auto", "Hi.", 0, 1},
		{"the last step forbids tools", func(s *contracts.ChatState) { s.ReactIters = 3 }, sgrtest.Text("From what I found [1]."), "none", "From what I found [1].", 0, 4},
		{"tool calls on the last step are dropped", func(s *contracts.ChatState) { s.ReactIters = 3 },
			sgrtest.ToolCall("search_kb", `{"query":"guard"}`), "none", "", 0, 4},
		{"streamed text is the draft", func(s *contracts.ChatState) { s.RetryCount = 1 }, sgrtest.Chunks("Use ", "guard.mode ", "[1]."), "auto", "Use guard.mode [1].", 0, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := sgrtest.NewScriptedModel(tc.reply)
			node := AgentModel{Model: m, Tools: []tool.BaseTool{search, staticTool{sgrInfo}}, Binding: f.tables["DT-003"],
				MaxIterations: 4, ForceFirstSearch: true, Product: "sgrgraph"}.Node()
			in := newState("How do I set the guard mode?")
			in.Plan, in.Action, in.SGRCalls = ptr(validPlan()), contracts.ActionNormal, 1
			tc.state(in)
			s, _, err := sgrtest.RunNode(context.Background(), AgentModelName, node, in)
			require.NoError(t, err)
			req := m.Requests()[0]
			assert.Equal(t, []string{"search_kb"}, req.Tools, "DT-003 keeps the SGR tool unbound")
			assert.Equal(t, tc.choice, req.ToolChoice)
			assert.Equal(t, schema.System, req.Messages[0].Role)
			assert.Equal(t, tc.draft, s.Draft)
			assert.Len(t, s.Diagnostics.Errors, tc.errors)
			assert.Equal(t, tc.iters, s.ReactIters)
			next, err := AfterAgentModel(context.Background(), s)
			require.NoError(t, err)
			if tc.choice == "none" {
				assert.Equal(t, AnswerKey, next, "the last step always leaves the loop")
			}
		})
	}
}

// A model that stays down ends the turn with the failure, classed and
// named: the loop does not go on, and no answer is made up.
func TestAgentModelFailureEndsTheTurn(t *testing.T) {
	f := newFixtures(t)
	node := AgentModel{Model: sgrtest.NewScriptedModel(sgrtest.Fail(context.DeadlineExceeded)), Binding: f.tables["DT-003"]}.Node()
	in := newState("How do I set the guard mode?")
	in.Plan, in.Action, in.SGRCalls = ptr(validPlan()), contracts.ActionNormal, 1
	_, _, err := sgrtest.RunNode(context.Background(), AgentModelName, node, in)
	f2, ok := models.FailureOf(err)
	require.True(t, ok, "a *models.CallError: %v", err)
	assert.Equal(t, AgentModelName, f2.Node)
	assert.Equal(t, contracts.CauseTimeout, f2.Cause)
	assert.Equal(t, "model", f2.Service)
}

func TestAgentModelStopsOnCancel(t *testing.T) {
	f := newFixtures(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	node := AgentModel{Model: sgrtest.NewScriptedModel(sgrtest.Text("late")), Binding: f.tables["DT-003"]}.Node()
	_, _, err := sgrtest.RunNode(ctx, AgentModelName, node, newState("q"))
	require.ErrorIs(t, err, context.Canceled)
}

func TestAfterAgentModel(t *testing.T) {
	for _, tc := range []struct {
		last *schema.Message
		want string
	}{
		{schema.AssistantMessage("", []schema.ToolCall{{ID: "1", Function: schema.FunctionCall{Name: "search_kb"}}}), AgentToolsName},
		{schema.AssistantMessage("done", nil), AnswerKey},
		{schema.UserMessage("the model failed, nothing was added"), AnswerKey},
	} {
		s := newState("q")
		s.Messages = append(s.Messages, tc.last)
		got, err := AfterAgentModel(context.Background(), s)
		require.NoError(t, err)
		assert.Equal(t, tc.want, got)
	}
}

// staticTool is a test double: a tool that only has a definition.
type staticTool struct{ info *schema.ToolInfo }

func (s staticTool) Info(context.Context) (*schema.ToolInfo, error) { return s.info, nil }
