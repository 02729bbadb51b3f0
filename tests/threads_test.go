package tests

import (
	"context"
	"fmt"
	"testing"

	"github.com/cloudwego/eino/schema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/nodes"
)

// sgrPromptTokens is the prompt of the turn's planning call.
func sgrPromptTokens(s *contracts.ChatState) int {
	for _, c := range s.Diagnostics.ModelCalls {
		if c.Node == nodes.SGRPlanName {
			return c.PromptTokens
		}
	}
	return -1
}

func TestThreadOutlivesTheAgent(t *testing.T) {
	ctx := context.Background()
	store := checkpoint.NewMemory()
	questions := []string{"How do I configure the safety guard?", "What does report mode do?", "And how do I switch it back?"}
	a := newAgent(t, agent.Options{Store: store})
	for i, q := range questions[:2] {
		s, err := a.RunState(ctx, agent.Turn{Thread: "t1", Message: q})
		require.NoError(t, err)
		assert.Equal(t, i+1, s.Turn)
	}
	b := newAgent(t, agent.Options{Store: store}) // as a new process would
	s, err := b.RunState(ctx, agent.Turn{Thread: "t1", Message: questions[2]})
	require.NoError(t, err)
	assert.Equal(t, 3, s.Turn)
	var users []string
	for _, m := range s.Messages {
		if m.Role == schema.User {
			users = append(users, m.Content)
		}
		assert.False(t, contracts.Synthetic(m) && m.Extra[contracts.MarkTurn] != 3, "no earlier turn's synthetic message is carried")
		if m.Role == schema.Tool {
			assert.Equal(t, 3, toolTurn(s, m), "no earlier turn's tool result is carried")
		}
	}
	assert.Equal(t, questions, users[:3], "the earlier questions are in context, in order")

	other, err := b.RunState(ctx, agent.Turn{Thread: "t2", Message: questions[0]})
	require.NoError(t, err)
	assert.Equal(t, 1, other.Turn, "another thread starts afresh")
}

// toolTurn is 3 when m is a result of this turn's tool calls: its call is
// in this turn's messages after the user's question.
func toolTurn(s *contracts.ChatState, m *schema.Message) int {
	for _, prev := range s.Messages {
		for _, c := range prev.ToolCalls {
			if c.ID == m.ToolCallID {
				return s.Turn
			}
		}
	}
	return 0
}

func TestLongThreadKeepsThePlanningPromptBounded(t *testing.T) {
	ctx := context.Background()
	a := newAgent(t, agent.Options{Store: checkpoint.NewMemory()})
	topics := []string{"the safety guard", "report mode", "decision tables", "the knowledge base", "batch runs"}
	first, last := 0, 0
	for i := 1; i <= 20; i++ {
		s, err := a.RunState(ctx, agent.Turn{Thread: "long", Message: fmt.Sprintf("How do I configure %s? (question %d)", topics[i%len(topics)], i)})
		require.NoError(t, err)
		require.Equal(t, i, s.Turn)
		if i == 1 {
			first = sgrPromptTokens(s)
		}
		last = sgrPromptTokens(s)
	}
	t.Logf("planning prompt: turn 1 %d tokens, turn 20 %d tokens", first, last)
	require.Positive(t, first)
	assert.Less(t, last, 2500, "the planning prompt of turn 20")
}

// A turn cut mid-way (its client went away) leaves its checkpoints, but the
// thread's next turn goes on from the last turn that ended: never from half
// a turn, whose question has no answer and whose tool call has no result.
func TestNextTurnSkipsACutTurn(t *testing.T) {
	store := checkpoint.NewMemory()
	a := newAgent(t, agent.Options{Store: store})
	first, err := a.RunState(context.Background(), agent.Turn{Thread: "t", Message: "How do I configure the safety guard?"})
	require.NoError(t, err)

	ctx, cancel := context.WithCancel(context.Background())
	cut := agent.Turn{Thread: "t", Message: "What does report mode do?", Events: func(ev contracts.Event) {
		if ev.Kind == contracts.EventToolCall {
			cancel() // the client goes away while the agent calls its tools
		}
	}}
	_, err = a.RunState(ctx, cut)
	require.ErrorIs(t, err, context.Canceled)
	latest, err := store.Latest(context.Background(), "t")
	require.NoError(t, err)
	require.NotEmpty(t, latest.Next, "the cut turn left a checkpoint mid-way")

	next, err := a.RunState(context.Background(), agent.Turn{Thread: "t", Message: "And how do I switch it back?"})
	require.NoError(t, err)
	assert.Equal(t, 2, next.Turn, "the cut turn does not count")
	var users []string
	for _, m := range next.Messages {
		if m.Role == schema.User {
			users = append(users, m.Content)
		}
	}
	assert.Equal(t, []string{first.UserMessage, "And how do I switch it back?"}, users[:2])
	assert.NotContains(t, users, cut.Message)
}
