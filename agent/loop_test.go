package agent_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/cloudwego/eino/schema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/sgrtest"
)

// TestOptionsReplaceTheLoopsNodes replaces the three nodes of the
// react_agent loop: the prebuilt agent runs them in its place, each tool
// call in a call_tool branch of its own with the call in ToolCall, and
// agent_tools once both have returned.
func TestOptionsReplaceTheLoopsNodes(t *testing.T) {
	var mu sync.Mutex
	var ran []string
	log := func(what string) {
		mu.Lock()
		defer mu.Unlock()
		ran = append(ran, what)
	}
	calls := []schema.ToolCall{
		{ID: "a", Function: schema.FunctionCall{Name: "order_status", Arguments: `{"id":"1"}`}},
		{ID: "b", Function: schema.FunctionCall{Name: "order_status", Arguments: `{"id":"2"}`}},
	}
	model := func(_ context.Context, s *contracts.ChatState) (*contracts.ChatState, error) {
		log("model")
		if last := s.Messages[len(s.Messages)-1]; last.Role == schema.Tool {
			s.Messages = append(s.Messages, schema.AssistantMessage("Both orders have shipped.", nil))
			s.Draft = "Both orders have shipped."
			return s, nil
		}
		s.Messages = append(s.Messages, schema.AssistantMessage("", calls))
		return s, nil
	}
	call := func(_ context.Context, s *contracts.ChatState) (*contracts.ChatState, error) {
		if s.ToolCall == nil {
			log("call without ToolCall")
			return s, nil
		}
		log("call " + s.ToolCall.ID)
		s.Messages = append(s.Messages, schema.ToolMessage("shipped", s.ToolCall.ID))
		s.ToolCall = nil
		return s, nil
	}
	tools := func(_ context.Context, s *contracts.ChatState) (*contracts.ChatState, error) {
		n := 0 // the answers after the last reply
		for _, m := range slices.Backward(s.Messages) {
			if m.Role != schema.Tool {
				break
			}
			n++
		}
		log("tools")
		assert.Equal(t, 2, n, "agent_tools runs once both branches have returned")
		return s, nil
	}
	m := sgrtest.NewScriptedModel(sgrtest.ToolCall("analyse_user_request", planJSON(question)))
	a := newAgent(t, agent.Options{Model: m, Searcher: contactSearch{},
		Replace: agent.Nodes{AgentModel: model, CallTool: call, AgentTools: tools}})
	s, err := a.RunState(context.Background(), agent.Turn{SessionID: "s", Message: question})
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(ran), 5, "the loop's nodes ran: %v", ran)
	first := slices.Clone(ran[:5])
	slices.Sort(first[1:3]) // the branches run in parallel
	assert.Equal(t, []string{"model", "call a", "call b", "tools", "model"}, first)
	var answers []string
	for _, msg := range s.Messages {
		if msg.Role == schema.Tool {
			answers = append(answers, msg.ToolCallID)
		}
	}
	require.GreaterOrEqual(t, len(answers), 2)
	assert.Equal(t, []string{"a", "b"}, answers[:2], "the answers join the conversation in call order")
}
