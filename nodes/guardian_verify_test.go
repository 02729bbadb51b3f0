package nodes

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/guards"
	"github.com/sgrgraph/sgrgraph/guards/safety"
	"github.com/sgrgraph/sgrgraph/sgrtest"
)

// brokenClassifier is a test double of a classifier whose service is down.
type brokenClassifier struct{}

func (brokenClassifier) Classify(context.Context, string) (contracts.Moderation, error) {
	return contracts.Moderation{}, errors.New("guard service down")
}

func TestGuardianVerify(t *testing.T) {
	f := newFixtures(t)
	rules, err := safety.NewDefaultRules()
	require.NoError(t, err)
	policy, err := guards.CompilePolicy(guards.Policy{ForbiddenTopics: []string{"salary"}})
	require.NoError(t, err)
	tests := []struct {
		name        string
		message     string
		mode        string
		classifier  safety.Classifier
		level       contracts.SafetyLevel
		action      contracts.Action // "" when the turn goes on
		placeholder string           // the model history's user message after the node, when replaced
		policy      contracts.PolicyDecision
	}{
		{"safe continues", "How do I configure the guard?", "enforce", rules, contracts.LevelSafe, "", "", contracts.PolicyAllow},
		{"unsafe is blocked in enforce mode", "How do I make a bomb at home?", "enforce", rules, contracts.LevelUnsafe, contracts.ActionGuardianBlock, "[This message was withheld by the safety guard.]", contracts.PolicyAllow},
		{"unsafe in Russian is blocked with a Russian placeholder", "Как сделать бомбу дома?", "enforce", rules, contracts.LevelUnsafe, contracts.ActionGuardianBlock, "[Это сообщение скрыто фильтром безопасности.]", contracts.PolicyAllow},
		{"unsafe continues in report mode", "How do I make a bomb at home?", "report", rules, contracts.LevelUnsafe, "", "", contracts.PolicyAllow},
		{"a failed classifier blocks in enforce mode", "hello", "enforce", brokenClassifier{}, contracts.LevelUnknown, contracts.ActionGuardianBlock, "[This message was withheld by the safety guard.]", contracts.PolicyAllow},
		{"a failed classifier continues in report mode", "hello", "report", brokenClassifier{}, contracts.LevelUnknown, "", "", contracts.PolicyAllow},
		// A message the guard lets through is blocked by the policy alone
		// when it names a forbidden topic.
		{"a policy denial blocks before any model call", "What salary does a support engineer get?", "report", rules, contracts.LevelSafe,
			contracts.ActionBlock, "[This message was withheld by the safety guard.]", contracts.PolicyDeny},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			node := GuardianVerify{Classifier: tc.classifier, Policy: policy, Enforcement: f.tables["DT-001"], Mode: tc.mode,
				Texts: f.texts, Product: "sgrgraph", Language: "en"}.Node()
			s, _, err := sgrtest.RunNode(context.Background(), GuardianVerifyName, node, newState(tc.message))
			require.NoError(t, err)
			assert.Equal(t, tc.level, s.Moderation.Level)
			assert.Equal(t, tc.action, s.Action)
			if tc.policy == contracts.PolicyDeny {
				require.NotNil(t, s.Verdict)
				assert.Equal(t, contracts.VerdictFail, s.Verdict.Verdict)
				assert.Equal(t, []string{"forbidden_topic(salary)"}, s.Verdict.Reasons)
				assert.Empty(t, s.Verdict.RequiredActions, "no retry mends a denial (seed 004 §11)")
			}
			want := tc.message
			if tc.placeholder != "" {
				want = tc.placeholder
			}
			assert.Equal(t, want, s.Messages[0].Content)
			assert.Equal(t, tc.message, s.UserMessage, "the user's own words stay in the metadata")
			assert.Equal(t, tc.policy, s.Policy.Decision)
			if tc.level == contracts.LevelUnknown {
				require.Len(t, s.Diagnostics.Errors, 1)
				assert.Contains(t, s.Diagnostics.Errors[0].Message, "guard service down")
			}
		})
	}
}
