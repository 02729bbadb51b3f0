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
	deny := &contracts.PolicyResult{Decision: contracts.PolicyDeny, Reasons: []string{"permission_denied(role=guest,request_type=HOWTO_POLICY)"}}
	ok := &contracts.CheckResult{OK: true, Reason: "ok"}
	noEvidence := &contracts.CheckResult{Reason: "no_evidence_fast_track", RequiredActions: []contracts.RequiredAction{contracts.ActRetrieveMore, contracts.ActRestrictScope}}
	item := contracts.EvidenceItem{Source: contracts.SourceDoc, Confidence: 0.9}
	tests := []struct {
		name     string
		policy   *contracts.PolicyResult
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
		{"all good", nil, "How do I set the mode?", "Set guard.mode [1].", contracts.ArchitectSpec{}, ok, 2, contracts.TrackQuality, 0, contracts.VerdictPass, contracts.RiskLow, []contracts.RequiredAction{}},
		{"no evidence is retried on FAST", nil, "What is DT-001?", "From memory.", contracts.ArchitectSpec{}, noEvidence, 0, contracts.TrackFast, 0,
			contracts.VerdictRetry, contracts.RiskMed, []contracts.RequiredAction{contracts.ActRetrieveMore, contracts.ActRestrictScope}},
		{"no evidence on FAST after the last retry fails with a question", nil, "What is DT-001?", "From memory.", contracts.ArchitectSpec{}, noEvidence, 0, contracts.TrackFast, 2,
			contracts.VerdictFail, contracts.RiskMed, []contracts.RequiredAction{contracts.ActAskMinimalQuestion}},
		{"weak evidence on FAST answers with restricted scope, no retry", nil, "What is DT-001?", "Tables are data [1].", contracts.ArchitectSpec{},
			&contracts.CheckResult{Reason: "weak_evidence_fast_track", RequiredActions: []contracts.RequiredAction{contracts.ActRestrictScope}}, 1, contracts.TrackFast, 0,
			contracts.VerdictPass, contracts.RiskMed, []contracts.RequiredAction{contracts.ActRestrictScope}},
		{"no evidence on QUALITY after the last retry fails with a question", nil, "How do I set the mode?", "From memory.", contracts.ArchitectSpec{}, noEvidence, 0, contracts.TrackQuality, 2,
			contracts.VerdictFail, contracts.RiskMed, []contracts.RequiredAction{contracts.ActAskMinimalQuestion}},
		{"a FAST answer is not held to the sections and terms", nil, "What is DT-001?", "The enforcement table [1].", contracts.ArchitectSpec{RequiredSections: []string{"Steps"}, DomainTerms: []string{"guardian"}}, ok, 1, contracts.TrackFast, 0,
			contracts.VerdictPass, contracts.RiskLow, []contracts.RequiredAction{}},
		{"a QUALITY answer is", nil, "How do I set the mode?", "Set it [1].", contracts.ArchitectSpec{RequiredSections: []string{"Steps"}}, ok, 2, contracts.TrackQuality, 0,
			contracts.VerdictRetry, contracts.RiskLow, []contracts.RequiredAction{contracts.ActAddRequiredSections, contracts.ActRegenerateDraft}},
		{"a retry that found nothing new is not repeated", nil, "How do I set the mode?", "Set it [1].", contracts.ArchitectSpec{},
			&contracts.CheckResult{Reason: "insufficient_evidence_count(<2)", RequiredActions: []contracts.RequiredAction{contracts.ActAddEvidence, contracts.ActRetrieveMore}},
			1, contracts.TrackQuality, 1, contracts.VerdictFail, contracts.RiskMed, []contracts.RequiredAction{contracts.ActAskMinimalQuestion}},
		{"forbidden content is retried", nil, "How do I set the mode?", "Set it; the password is hunter2.", contracts.ArchitectSpec{ForbiddenContent: []string{"password"}}, ok, 2, contracts.TrackQuality, 1,
			contracts.VerdictRetry, contracts.RiskLow, []contracts.RequiredAction{contracts.ActRemoveForbiddenContent, contracts.ActRegenerateDraft}},
		{"the knowledge base's support address passes", nil, "How do I reach support?", "Write to help@example.com [1].", contracts.ArchitectSpec{}, ok, 2, contracts.TrackQuality, 0,
			contracts.VerdictPass, contracts.RiskLow, []contracts.RequiredAction{}},
		{"a customer's address is retried", nil, "What is my address?", "Yours is ivan@example.com [1].", contracts.ArchitectSpec{}, ok, 2, contracts.TrackQuality, 0,
			contracts.VerdictRetry, contracts.RiskLow, []contracts.RequiredAction{contracts.ActRemoveForbiddenContent, contracts.ActRegenerateDraft}},
		{"a broken contract fails after the last retry", nil, "How do I set the mode?", "No sections.", contracts.ArchitectSpec{RequiredSections: []string{"Steps"}}, ok, 2, contracts.TrackQuality, 2,
			contracts.VerdictFail, contracts.RiskLow, []contracts.RequiredAction{contracts.ActSafeRefusal}},
		{"a policy denial fails at once, with no required action (seed 004 §11)", deny, "How do I set the mode?", "It is 10.", contracts.ArchitectSpec{}, ok, 2, contracts.TrackQuality, 0,
			contracts.VerdictFail, contracts.RiskHigh, []contracts.RequiredAction{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := newState(tc.message)
			in.Draft, in.Spec, in.EvidenceCheck, in.Track, in.RetryCount = tc.draft, tc.spec, tc.evidence, tc.track, tc.retries
			in.Policy = tc.policy
			// The attempt searched: a retry that found nothing new is futile.
			in.QueryTraces = []contracts.QueryTrace{{Tool: "search_kb", Query: "q", Attempt: tc.retries}}
			for i := 0; i < tc.items; i++ {
				in.Evidence = append(in.Evidence, item)
			}
			// The knowledge base publishes its support address.
			node := ContractCheck{Verdicts: f.tables["DT-005"], Published: guards.PublishedIn("Contact help@example.com.")}.Node()
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
