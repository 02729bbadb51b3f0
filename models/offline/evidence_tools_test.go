package offline

import (
	"context"
	"testing"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A tool offered with a query argument is called with each search query,
// as search_kb is; one without is not called, and its results, when a
// model calls it, are no search the answer waits for twice.
func TestEngineCallsEvidenceTools(t *testing.T) {
	ctx := context.Background()
	e := engine()
	user := schema.UserMessage("How do I configure the safety guard?")
	synthetic := schema.AssistantMessage("## Analysis\n**Subqueries**:\n- \"guard mode\"\n- \"safety guard\"\n\n## Response\nLet me search.", nil)
	tools := model.WithTools([]*schema.ToolInfo{
		{Name: "search_kb"},
		{Name: "policies__ask", Extra: map[string]any{QueryArgument: "question"}},
		{Name: "fs__write_file"},
	})
	step, err := e.Generate(ctx, []*schema.Message{user, synthetic}, tools, model.WithToolChoice(schema.ToolChoiceForced))
	require.NoError(t, err)
	var calls []string
	ids := map[string]bool{}
	for _, c := range step.ToolCalls {
		calls = append(calls, c.Function.Name+" "+c.Function.Arguments)
		assert.False(t, ids[c.ID], "call ids are distinct: %s", c.ID)
		ids[c.ID] = true
	}
	assert.Equal(t, []string{
		`search_kb {"query":"guard mode"}`, `search_kb {"query":"safety guard"}`,
		`policies__ask {"question":"guard mode"}`, `policies__ask {"question":"safety guard"}`,
	}, calls)

	history := []*schema.Message{user, synthetic, step}
	for _, c := range step.ToolCalls {
		out := "The guard's mode is set by the security team."
		if c.Function.Name == "search_kb" {
			out = searchResult(t)
		}
		history = append(history, schema.ToolMessage(out, c.ID, schema.WithToolName(c.Function.Name)))
	}
	answer, err := e.Generate(ctx, history, tools, model.WithToolChoice(schema.ToolChoiceAllowed))
	require.NoError(t, err)
	assert.Empty(t, answer.ToolCalls, "it has searched: it answers")
	assert.Contains(t, answer.Content, "Set the mode with guard.mode in the configuration. [1]")
}
