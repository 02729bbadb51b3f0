package guards

import (
	"testing"

	"github.com/stretchr/testify/assert"

	c "github.com/sgrgraph/sgrgraph/contracts"
)

func item(source string, conf float64) c.EvidenceItem {
	return c.EvidenceItem{Source: c.EvidenceSource(source), Ref: source + "-ref", Snippet: "…", Confidence: conf}
}

func items(spec ...any) []c.EvidenceItem {
	var out []c.EvidenceItem
	for i := 0; i+1 < len(spec); i += 2 {
		out = append(out, item(spec[i].(string), spec[i+1].(float64)))
	}
	return out
}

func TestCheckEvidence(t *testing.T) {
	tests := []struct {
		name    string
		rt      c.RequestType
		track   c.Track
		ev      []c.EvidenceItem
		ok      bool
		reason  string
		actions []c.RequiredAction
	}{
		// Track minimums.
		{"quality: one item is too few (seed §10)", c.RequestDesignArch, c.TrackQuality, items("doc", 0.7), false,
			"insufficient_evidence_count(<2)", []c.RequiredAction{c.ActAddEvidence, c.ActRetrieveMore}},
		{"quality: no evidence", c.RequestKnowledgeQA, c.TrackQuality, nil, false, "insufficient_evidence_count(<2)", []c.RequiredAction{c.ActAddEvidence, c.ActRetrieveMore}},
		{"quality: one source is too little diversity", c.RequestDesignArch, c.TrackQuality, items("doc", 0.7, "doc", 0.8), false,
			"low_source_diversity(<2)", []c.RequiredAction{c.ActDiversifySources, c.ActRetrieveMore}},
		{"quality: two sources pass", c.RequestDesignArch, c.TrackQuality, items("doc", 0.7, "policy", 0.8), true, "ok", nil},
		{"fast: one item passes", c.RequestKnowledgeQA, c.TrackFast, items("doc", 0.3), true, "ok", nil},
		{"fast: no evidence restricts scope", c.RequestKnowledgeQA, c.TrackFast, nil, false,
			"no_evidence_fast_track", []c.RequiredAction{c.ActRetrieveMore, c.ActRestrictScope}},
		{"casual passes with a search", c.RequestCasual, c.TrackFast, items("doc", 0.1), true, "ok", nil},
		{"casual needs no evidence at all", c.RequestCasual, c.TrackFast, nil, true, "ok", nil},
		// Average confidence.
		{"quality: average exactly 0.60 passes", c.RequestDesignArch, c.TrackQuality, items("doc", 0.6, "policy", 0.6), true, "ok", nil},
		{"quality: average 0.59 fails", c.RequestDesignArch, c.TrackQuality, items("doc", 0.59, "policy", 0.59), false,
			"low_evidence_confidence(avg=0.59)", []c.RequiredAction{c.ActRetrieveMore, c.ActRefineQuery}},
		// STATUS rows: db required, doc forbidden, on any track.
		{"status metric with doc and policy (seed §10)", c.RequestStatusMetric, c.TrackQuality, items("doc", 0.8, "policy", 0.9), false,
			"status_request_must_not_use_doc_as_primary", []c.RequiredAction{c.ActRemoveDocEvidence, c.ActUseDBOnly}},
		{"status metric without db", c.RequestStatusMetric, c.TrackQuality, items("policy", 0.8, "graph", 0.9), false,
			"status_request_requires_db", []c.RequiredAction{c.ActUseDBOnly, c.ActRetrieveDB}},
		{"status metric with db and policy", c.RequestStatusMetric, c.TrackQuality, items("db", 0.8, "policy", 0.9), true, "ok", nil},
		{"status summary with db and policy", c.RequestStatusSummary, c.TrackQuality, items("db", 0.8, "policy", 0.9), true, "ok", nil},
		{"status summary with doc", c.RequestStatusSummary, c.TrackQuality, items("db", 0.8, "doc", 0.9), false,
			"status_request_must_not_use_doc_as_primary", []c.RequiredAction{c.ActRemoveDocEvidence, c.ActUseDBOnly}},
		{"status list with db and graph", c.RequestStatusList, c.TrackQuality, items("db", 0.8, "graph", 0.9), true, "ok", nil},
		{"status list without db on fast", c.RequestStatusList, c.TrackFast, items("graph", 0.8), false,
			"status_request_requires_db", []c.RequiredAction{c.ActUseDBOnly, c.ActRetrieveDB}},
		// doc OR policy rows, on QUALITY only.
		{"howto with policy and db", c.RequestHowtoPolicy, c.TrackQuality, items("policy", 0.8, "db", 0.9), true, "ok", nil},
		{"howto without doc or policy", c.RequestHowtoPolicy, c.TrackQuality, items("db", 0.8, "graph", 0.9), false,
			"design_policy_requires_doc_or_policy", []c.RequiredAction{c.ActRetrieveDoc, c.ActRetrievePolicy}},
		{"design without doc or policy on fast is fine", c.RequestDesignArch, c.TrackFast, items("db", 0.8), true, "ok", nil},
		{"data definition with doc and db", c.RequestDataDefinition, c.TrackQuality, items("doc", 0.8, "db", 0.9), true, "ok", nil},
		{"data definition without doc or policy", c.RequestDataDefinition, c.TrackQuality, items("db", 0.8, "graph", 0.9), false,
			"design_policy_requires_doc_or_policy", []c.RequiredAction{c.ActRetrieveDoc, c.ActRetrievePolicy}},
		// Troubleshooting and knowledge rows.
		{"troubleshooting with db and policy", c.RequestTroubleshoot, c.TrackQuality, items("db", 0.8, "policy", 0.9), true, "ok", nil},
		{"troubleshooting with doc and policy only", c.RequestTroubleshoot, c.TrackQuality, items("doc", 0.8, "policy", 0.9), false,
			"troubleshooting_requires_db_or_graph", []c.RequiredAction{c.ActRetrieveDB, c.ActRetrieveMore}},
		{"knowledge with doc and policy", c.RequestKnowledgeQA, c.TrackQuality, items("doc", 0.8, "policy", 0.9), true, "ok", nil},
		{"knowledge with db and policy only", c.RequestKnowledgeQA, c.TrackQuality, items("db", 0.8, "policy", 0.9), false,
			"knowledge_qa_requires_doc_or_graph", []c.RequiredAction{c.ActRetrieveDoc, c.ActRetrieveMore}},
		{"unknown request type", "GOSSIP", c.TrackFast, items("doc", 0.8), false, "unknown_request_type(GOSSIP)", []c.RequiredAction{c.ActRefineQuery}},
		{"empty request type has no source rule", "", c.TrackFast, items("db", 0.8), true, "ok", nil},
	}
	rules := DefaultEvidenceRules()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := CheckEvidence(EvidenceCase{RequestType: tc.rt, Track: tc.track, Evidence: tc.ev}, rules)
			assert.Equal(t, c.CheckResult{OK: tc.ok, Reason: tc.reason, RequiredActions: tc.actions}, got)
		})
	}
}

func TestEvidenceRulesAreConfigurable(t *testing.T) {
	rules := DefaultEvidenceRules()
	rules.QualityMinSources = 1
	got := CheckEvidence(EvidenceCase{RequestType: c.RequestHowtoPolicy, Track: c.TrackQuality, Evidence: items("doc", 0.7, "doc", 0.8)}, rules)
	assert.True(t, got.OK, "a single-source knowledge base can lower the diversity minimum")
	rules.QualityMinItems = 3
	got = CheckEvidence(EvidenceCase{RequestType: c.RequestHowtoPolicy, Track: c.TrackQuality, Evidence: items("doc", 0.7, "doc", 0.8)}, rules)
	assert.True(t, got.OK, "one kind of source asked for: the items are not counted")
	rules.QualityMinSources = 2
	got = CheckEvidence(EvidenceCase{RequestType: c.RequestHowtoPolicy, Track: c.TrackQuality, Evidence: items("doc", 0.7, "policy", 0.8)}, rules)
	assert.Equal(t, "insufficient_evidence_count(<3)", got.Reason, "two kinds asked for: the count holds")
}

// What was set aside as untrusted is not evidence: the check judges what
// remained, a turn whose every piece was set aside has no evidence as one
// whose searches found nothing, and the result names what was set aside
// whether it passes or not.
func TestEvidenceCheckNamesWhatWasSetAside(t *testing.T) {
	rules := DefaultEvidenceRules()
	aside := []c.SetAside{{Source: c.SourceDoc, Ref: "tent-prices", KBID: "tent-prices", Reason: "prompt_injection(…)"}}
	got := CheckEvidence(EvidenceCase{RequestType: c.RequestKnowledgeQA, Track: c.TrackFast, Evidence: items("doc", 0.8), SetAside: aside}, rules)
	assert.Equal(t, c.CheckResult{OK: true, Reason: "ok", SetAside: []string{"tent-prices"}}, got)
	got = CheckEvidence(EvidenceCase{RequestType: c.RequestKnowledgeQA, Track: c.TrackFast, SetAside: aside}, rules)
	assert.Equal(t, c.CheckResult{Reason: "no_evidence_fast_track", RequiredActions: []c.RequiredAction{c.ActRetrieveMore, c.ActRestrictScope},
		SetAside: []string{"tent-prices"}}, got)
}

func TestEvidenceRulesValidate(t *testing.T) {
	assert.NoError(t, DefaultEvidenceRules().Validate())
	for _, tc := range []struct {
		modify func(r *EvidenceRules)
		want   string
	}{
		{func(r *EvidenceRules) { r.QualityMinItems = -1 }, "quality_min_items: -1 is outside 0..20"},
		{func(r *EvidenceRules) { r.QualityMinSources = 5 }, "quality_min_sources: 5 is outside 0..4"},
		{func(r *EvidenceRules) { r.MinAvgConfidence = 1.5 }, "min_avg_confidence: 1.5 is outside [0,1]"},
		{func(r *EvidenceRules) { r.FastMinItems = 21 }, "fast_min_items: 21 is outside 0..20"},
	} {
		r := DefaultEvidenceRules()
		tc.modify(&r)
		assert.ErrorContains(t, r.Validate(), tc.want)
	}
}
