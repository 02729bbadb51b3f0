package nodes

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/guards"
	"github.com/sgrgraph/sgrgraph/sgrtest"
)

func TestPolicyCheck(t *testing.T) {
	f := newFixtures(t)
	policy, err := guards.CompilePolicy(guards.Policy{DeniedRequestTypes: map[string][]contracts.RequestType{
		"guest": {contracts.RequestHowtoPolicy}}})
	require.NoError(t, err)
	tests := []struct {
		name     string
		policy   *guards.QueryPolicy
		role     string
		rt       contracts.RequestType
		level    contracts.SafetyLevel
		mode     string
		decided  bool   // DT-001 was evaluated again
		decision string // its decision
		action   contracts.Action
	}{
		{"a role denied the request type is refused before any search", policy, "guest", contracts.RequestHowtoPolicy, contracts.LevelSafe, "enforce",
			true, "Block", contracts.ActionBlock},
		{"in report mode too", policy, "guest", contracts.RequestHowtoPolicy, contracts.LevelUnsafe, "report", true, "Block", contracts.ActionBlock},
		{"another request type goes on", policy, "guest", contracts.RequestKnowledgeQA, contracts.LevelSafe, "enforce", true, "Continue", ""},
		{"another role goes on", policy, "admin", contracts.RequestHowtoPolicy, contracts.LevelSafe, "enforce", true, "Continue", ""},
		{"no role goes on", policy, "", contracts.RequestHowtoPolicy, contracts.LevelSafe, "enforce", true, "Continue", ""},
		{"an unsafe message in report mode goes on, as at the door", policy, "admin", contracts.RequestHowtoPolicy, contracts.LevelUnsafe, "report",
			true, "Continue", ""},
		{"no policy: nothing to decide", nil, "guest", contracts.RequestHowtoPolicy, contracts.LevelSafe, "enforce", false, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := newState("How do I configure the guard?")
			in.UserRole, in.RequestType = tc.role, tc.rt
			in.Moderation = &contracts.Moderation{Level: tc.level}
			node := PolicyCheck{Policy: tc.policy, Enforcement: f.tables["DT-001"], Mode: tc.mode}.Node()
			s, evs, err := sgrtest.RunNode(context.Background(), PolicyCheckName, node, in)
			require.NoError(t, err)
			d, ok := s.Decision("DT-001")
			assert.Equal(t, tc.decided, ok)
			assert.Equal(t, tc.decision, d.Outputs["decision"])
			assert.Equal(t, tc.action, s.Action)
			if tc.action == "" {
				assert.Nil(t, s.Verdict)
				assert.Empty(t, evs)
				return
			}
			require.NotNil(t, s.Verdict)
			assert.Equal(t, contracts.VerdictFail, s.Verdict.Verdict)
			assert.Equal(t, contracts.RiskHigh, s.Verdict.RiskLevel)
			assert.Equal(t, []string{"permission_denied(role=guest,request_type=HOWTO_POLICY)"}, s.Verdict.Reasons)
			assert.Empty(t, s.Verdict.RequiredActions, "no retry mends a denial (seed 004 §11)")
			require.Len(t, evs, 1)
			assert.Equal(t, contracts.EventVerdict, evs[0].Kind)
		})
	}
}
