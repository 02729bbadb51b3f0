package nodes

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/tables"
)

func TestHumanReview(t *testing.T) {
	dt005 := &tables.Table{ID: "DT-005"}
	fail := &contracts.Verdict{Verdict: contracts.VerdictFail, Reasons: []string{"no_evidence"}}
	pass := &contracts.Verdict{Verdict: contracts.VerdictPass}
	controversial := &contracts.Moderation{Level: contracts.LevelControversial}
	deny := &contracts.PolicyResult{Decision: contracts.PolicyDeny}
	for _, tc := range []struct {
		name      string
		on        []string
		verdict   *contracts.Verdict
		mod       *contracts.Moderation
		policy    *contracts.PolicyResult
		next      string // DT-005's recorded next step
		answer    contracts.ReviewAnswer
		asked     string // the reason asked, "" when no one is
		route     string
		answerErr string
	}{
		{"a failed draft is asked about", []string{"fail"}, fail, nil, nil, SafeExitName, contracts.ReviewAnswer{Decision: "approve"}, "fail", FinalizeName, ""},
		{"rejected, it ends safely", []string{"fail"}, fail, nil, nil, SafeExitName, contracts.ReviewAnswer{Decision: "reject"}, "fail", SafeExitName, ""},
		{"a passed answer to a controversial request", []string{"controversial"}, pass, controversial, nil, FinalizeName, contracts.ReviewAnswer{Decision: "edit", Text: "softer"}, "controversial", FinalizeName, ""},
		{"not configured for fails", []string{"controversial"}, fail, nil, nil, SafeExitName, contracts.ReviewAnswer{}, "", SafeExitName, ""},
		{"review off: a failed draft passes on to safe_exit", nil, fail, nil, nil, SafeExitName, contracts.ReviewAnswer{}, "", SafeExitName, ""},
		{"review off: a controversial answer passes on to finalize", nil, pass, controversial, nil, FinalizeName, contracts.ReviewAnswer{}, "", FinalizeName, ""},
		{"a policy denial is no one's to let out", []string{"fail"}, fail, nil, deny, SafeExitName, contracts.ReviewAnswer{}, "", SafeExitName, ""},
		{"an edit without text", []string{"fail"}, fail, nil, nil, SafeExitName, contracts.ReviewAnswer{Decision: "edit"}, "fail", "", "an edit needs the text"},
		{"an unknown decision", []string{"fail"}, fail, nil, nil, SafeExitName, contracts.ReviewAnswer{Decision: "maybe"}, "fail", "", `decision "maybe"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			asked := ""
			c := HumanReview{On: tc.on, Verdicts: dt005, Ask: func(_ context.Context, r contracts.ReviewRequest) (contracts.ReviewAnswer, error) {
				asked = r.Reason
				assert.Equal(t, "the draft", r.Draft)
				return tc.answer, nil
			}}
			s := newState("q")
			s.Draft, s.Verdict, s.Moderation, s.Policy = "the draft", tc.verdict, tc.mod, tc.policy
			s.Record(tables.Result{Table: "DT-005", Rule: 1, Outputs: map[string]string{"next": tc.next}})
			out, err := c.Node()(context.Background(), s)
			assert.Equal(t, tc.asked, asked)
			if tc.answerErr != "" {
				assert.ErrorContains(t, err, tc.answerErr)
				return
			}
			require.NoError(t, err)
			route, err := c.Route()(context.Background(), out)
			require.NoError(t, err)
			assert.Equal(t, tc.route, route)
			if tc.answer.Decision == "edit" {
				assert.Equal(t, "softer", out.Draft)
			}
		})
	}
}
