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
		{"one strong item is enough where one kind of source is asked", contracts.RequestHowtoPolicy, contracts.TrackQuality, []contracts.EvidenceItem{doc}, true, ""},
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

// The node hands the draft and the found articles to the grounding check:
// a statement its cited article does not say is named in the reason.
func TestEvidenceCheckJudgesTheDraftsGrounding(t *testing.T) {
	rules := guards.DefaultEvidenceRules()
	rules.QualityMinSources = 1
	in := newState("How do I set the guard mode?")
	in.RequestType, in.Track = contracts.RequestHowtoPolicy, contracts.TrackQuality
	in.Evidence = []contracts.EvidenceItem{{Source: contracts.SourceDoc, Ref: "safety-guard", Confidence: 0.8}}
	in.Articles = []contracts.Article{{KBID: "safety-guard", Score: 0.8, Chunks: []contracts.Chunk{{Text: "Set guard.mode to enforce, report or off."}}}}
	run := func(draft string) *contracts.CheckResult {
		in.Draft = draft
		s, _, err := sgrtest.RunNode(context.Background(), EvidenceCheckName, EvidenceCheck{Rules: rules}.Node(), in.Clone())
		require.NoError(t, err)
		return s.EvidenceCheck
	}
	assert.True(t, run("Set guard.mode to enforce, report or off [1].").OK)
	got := run("The guard learns new categories every night [1].")
	assert.False(t, got.OK)
	assert.Equal(t, `unsupported_statements=["The guard learns new categories every night [1]"]`, got.Reason)
	assert.Contains(t, got.RequiredActions, contracts.ActRegenerateDraft)
}
