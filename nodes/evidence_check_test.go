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

func TestEvidenceCheck(t *testing.T) {
	doc := contracts.EvidenceItem{Source: contracts.SourceDoc, Ref: "guard", Confidence: 0.8}
	weak := contracts.EvidenceItem{Source: contracts.SourceDoc, Ref: "tables", Confidence: 0.1}
	rules := guards.DefaultEvidenceRules()
	rules.QualityMinSources = 1
	tests := []struct {
		name     string
		rt       contracts.RequestType
		track    contracts.Track
		evidence []contracts.EvidenceItem
		ok       bool
		action   contracts.RequiredAction
	}{
		{"no evidence on FAST", contracts.RequestKnowledgeQA, contracts.TrackFast, nil, false, contracts.ActRetrieveMore},
		{"no evidence on QUALITY", contracts.RequestHowtoPolicy, contracts.TrackQuality, nil, false, contracts.ActRetrieveMore},
		{"one item is enough on FAST", contracts.RequestKnowledgeQA, contracts.TrackFast, []contracts.EvidenceItem{doc}, true, ""},
		{"one item is too few on QUALITY", contracts.RequestHowtoPolicy, contracts.TrackQuality, []contracts.EvidenceItem{doc}, false, contracts.ActAddEvidence},
		{"two docs pass a how-to", contracts.RequestHowtoPolicy, contracts.TrackQuality, []contracts.EvidenceItem{doc, doc}, true, ""},
		{"weak evidence on QUALITY", contracts.RequestHowtoPolicy, contracts.TrackQuality, []contracts.EvidenceItem{weak, weak}, false, contracts.ActRetrieveMore},
		{"docs cannot answer a live status", contracts.RequestStatusMetric, contracts.TrackQuality, []contracts.EvidenceItem{doc, doc}, false, contracts.ActRemoveDocEvidence},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := newState("q")
			in.RequestType, in.Track, in.Evidence = tc.rt, tc.track, tc.evidence
			s, _, err := sgrtest.RunNode(context.Background(), EvidenceCheckName, EvidenceCheck{Rules: rules}.Node(), in)
			require.NoError(t, err)
			require.NotNil(t, s.EvidenceCheck)
			assert.Equal(t, tc.ok, s.EvidenceCheck.OK, s.EvidenceCheck.Reason)
			if tc.action != "" {
				assert.Contains(t, s.EvidenceCheck.RequiredActions, tc.action)
			}
		})
	}
}
