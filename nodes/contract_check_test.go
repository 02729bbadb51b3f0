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

func TestContractCheckVerdicts(t *testing.T) {
	f := newFixtures(t)
	policy, err := guards.CompilePolicy(guards.Policy{ForbiddenTopics: []string{"salary"}})
	require.NoError(t, err)
	ok := &contracts.CheckResult{OK: true, Reason: "ok"}
	noEvidence := &contracts.CheckResult{Reason: "no_evidence_fast_track", RequiredActions: []contracts.RequiredAction{contracts.ActRetrieveMore, contracts.ActRestrictScope}}
	item := contracts.EvidenceItem{Source: contracts.SourceDoc, Confidence: 0.9}
	tests := []struct {
		name     string
		message  string
		draft    string
		spec     contracts.ArchitectSpec
		evidence *contracts.CheckResult
		items    int
		track    contracts.Track
		retries  int
		verdict  contracts.VerdictKind
		risk     contracts.RiskLevel
		actions  []contracts.RequiredAction
	}{
		{"all good", "How do I set the mode?", "Set guard.mode [1].", contracts.ArchitectSpec{}, ok, 2, contracts.TrackQuality, 0, contracts.VerdictPass, contracts.RiskLow, []contracts.RequiredAction{}},
		{"no evidence is retried on FAST", "What is DT-001?", "From memory.", contracts.ArchitectSpec{}, noEvidence, 0, contracts.TrackFast, 0,
			contracts.VerdictRetry, contracts.RiskMed, []contracts.RequiredAction{contracts.ActRetrieveMore, contracts.ActRestrictScope}},
		{"no evidence after the last retry fails with a question", "What is DT-001?", "From memory.", contracts.ArchitectSpec{}, noEvidence, 0, contracts.TrackFast, 2,
			contracts.VerdictFail, contracts.RiskMed, []contracts.RequiredAction{contracts.ActAskMinimalQuestion}},
		{"forbidden content is retried", "How do I set the mode?", "Set it; the password is hunter2.", contracts.ArchitectSpec{ForbiddenContent: []string{"password"}}, ok, 2, contracts.TrackQuality, 1,
			contracts.VerdictRetry, contracts.RiskLow, []contracts.RequiredAction{contracts.ActRemoveForbiddenContent, contracts.ActRegenerateDraft}},
		{"a broken contract fails after the last retry", "How do I set the mode?", "No sections.", contracts.ArchitectSpec{RequiredSections: []string{"Steps"}}, ok, 2, contracts.TrackQuality, 2,
			contracts.VerdictFail, contracts.RiskLow, []contracts.RequiredAction{contracts.ActSafeRefusal}},
		{"the query policy fails at once", "What is my boss's salary?", "It is 10.", contracts.ArchitectSpec{}, ok, 2, contracts.TrackQuality, 0,
			contracts.VerdictFail, contracts.RiskHigh, []contracts.RequiredAction{contracts.ActSafeRefusal}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := newState(tc.message)
			in.Draft, in.Spec, in.EvidenceCheck, in.Track, in.RetryCount = tc.draft, tc.spec, tc.evidence, tc.track, tc.retries
			for i := 0; i < tc.items; i++ {
				in.Evidence = append(in.Evidence, item)
			}
			node := ContractCheck{Verdicts: f.tables["DT-005"], Policy: policy}.Node()
			s, evs, err := sgrtest.RunNode(context.Background(), ContractCheckName, node, in)
			require.NoError(t, err)
			require.NotNil(t, s.Verdict)
			assert.Equal(t, tc.verdict, s.Verdict.Verdict)
			assert.Equal(t, tc.risk, s.Verdict.RiskLevel)
			assert.Equal(t, tc.actions, s.Verdict.RequiredActions)
			assert.Equal(t, tc.draft, s.Draft, "the Guardian never edits the draft")
			require.Len(t, evs, 1)
			assert.Equal(t, contracts.EventVerdict, evs[0].Kind)
		})
	}
}
