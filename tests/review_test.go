package tests

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/sgrtest"
)

// failing is a model whose drafts the Guardian fails: it never searches.
func failing() *sgrtest.ScriptedModel {
	return sgrtest.NewScriptedModel(
		sgrtest.ToolCall("analyse_user_request", planJSON("en", "How do I set the guard mode?")),
		sgrtest.Text("From memory."), sgrtest.Text("Still from memory."), sgrtest.Text("Set guard.mode to enforce."),
	)
}

func TestHumanReviewOfAFailedDraft(t *testing.T) {
	review := func(c *config.Config) { c.Guardian.HumanReview = []string{contracts.ReviewOnFail} }
	for _, tc := range []struct {
		name     string
		answer   contracts.ReviewAnswer
		contains string
		last     string
	}{
		{"approved, the draft goes out", contracts.ReviewAnswer{Decision: contracts.ReviewApprove}, "Set guard.mode to enforce.", "finalize"},
		{"edited, the person's text goes out", contracts.ReviewAnswer{Decision: contracts.ReviewEdit, Text: "Set guard.mode: enforce [1]."}, "Set guard.mode: enforce [1].", "finalize"},
		{"rejected, the turn ends safely", contracts.ReviewAnswer{Decision: contracts.ReviewReject}, "Which part of sgrgraph", "safe_exit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			a := newAgent(t, agent.Options{Model: failing()}, review)
			_, err := a.Run(ctx, agent.Turn{Message: "How do I set the guard mode?"})
			thread, req, ok := agent.Paused(err)
			require.True(t, ok, "the failed draft waits for a person: %v", err)
			assert.Equal(t, contracts.ReviewOnFail, req.Reason)
			assert.Equal(t, "Set guard.mode to enforce.", req.Draft)
			assert.Equal(t, "FAIL", req.Verdict)

			res, err := a.Resume(ctx, thread, tc.answer)
			require.NoError(t, err)
			assert.Contains(t, res.Answer, tc.contains)
			require.NotNil(t, res.Review)
			assert.Equal(t, tc.answer.Decision, res.Review.Decision, "the result says what the person decided")
			assert.Equal(t, tc.last, res.Diagnostics.Nodes[len(res.Diagnostics.Nodes)-1].Node)
			_, err = a.Resume(ctx, thread, tc.answer)
			assert.ErrorIs(t, err, checkpoint.ErrNotFound, "a review thread goes once its turn is done")
		})
	}
}

func TestHumanReviewLeavesAPassedAnswerAlone(t *testing.T) {
	review := func(c *config.Config) { c.Guardian.HumanReview = []string{contracts.ReviewOnFail} }
	s, err := newAgent(t, agent.Options{}, review).RunState(context.Background(), agent.Turn{Message: "How do I configure the safety guard?"})
	require.NoError(t, err)
	assert.Equal(t, contracts.VerdictPass, s.Verdict.Verdict)
	assert.Nil(t, s.Review)
	assert.Equal(t, "finalize", s.Diagnostics.Nodes[len(s.Diagnostics.Nodes)-1].Node)
}
