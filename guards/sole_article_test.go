package guards

import (
	"testing"

	"github.com/stretchr/testify/assert"

	c "github.com/sgrgraph/sgrgraph/contracts"
)

// article is one article found by search_kb with query q.
func article(ref string, conf float64, q string) c.EvidenceItem {
	return c.EvidenceItem{Source: c.SourceDoc, Ref: ref, Confidence: conf, Tool: "search_kb", Query: q}
}

// search is a search of the first attempt that found ref first, scoring
// top.
func search(q, ref string, top float64, likelyRelevant bool) c.QueryTrace {
	return c.QueryTrace{Tool: "search_kb", Query: q, Articles: []c.Article{{KBID: ref, Score: top}, {KBID: "other", Score: top / 2}},
		Confidence: c.RetrievalConfidence{TopScore: top, LikelyRelevant: likelyRelevant}}
}

// retried is the search made by a retry.
func retried(s c.QueryTrace, attempt int) c.QueryTrace {
	s.Attempt = attempt
	return s
}

func TestSoleArticle(t *testing.T) {
	rules := DefaultEvidenceRules()
	rules.QualityMinSources, rules.MinAvgConfidence = 1, 0.3
	rules.SoleArticleConfidence, rules.RelevanceThreshold = 0.7, 0.5
	seedRules := rules
	seedRules.SoleArticleConfidence = 0
	tests := []struct {
		name     string
		rules    EvidenceRules
		evidence []c.EvidenceItem
		searches []c.QueryTrace
		ok       bool
		reason   string
	}{
		{"one strong article, nothing else found", rules,
			[]c.EvidenceItem{article("saml", 0.85, "saml")}, []c.QueryTrace{search("saml", "saml", 0.85, true)}, true, "ok"},
		{"one strong article, the rest below the relevance bar", rules,
			[]c.EvidenceItem{article("saml", 0.85, "saml")}, []c.QueryTrace{search("saml", "saml", 0.85, true), search("sso", "saml", 0.3, false)}, true, "ok"},
		{"strong but its search was not clearly relevant", rules,
			[]c.EvidenceItem{article("saml", 0.85, "saml")}, []c.QueryTrace{search("saml", "saml", 0.85, false)}, false, "insufficient_evidence_count(<2)"},
		{"the search that found it failed", rules,
			[]c.EvidenceItem{article("saml", 0.85, "saml")}, []c.QueryTrace{{Tool: "search_kb", Query: "saml", Error: "down",
				Confidence: c.RetrievalConfidence{TopScore: 0.85, LikelyRelevant: true}}}, false, "insufficient_evidence_count(<2)"},
		{"one article below the strong bar", rules,
			[]c.EvidenceItem{article("saml", 0.65, "saml")}, []c.QueryTrace{search("saml", "saml", 0.65, true)}, false, "insufficient_evidence_count(<2)"},
		{"another article first in the strong search", rules,
			[]c.EvidenceItem{article("saml", 0.85, "saml")}, []c.QueryTrace{search("saml", "oidc", 0.85, true)}, false, "insufficient_evidence_count(<2)"},
		{"a retry's word finds it strongly, the question's words did not", rules,
			[]c.EvidenceItem{article("router", 0.85, "router")},
			[]c.QueryTrace{search("set parental controls router", "router", 0.27, false), retried(search("router", "router", 0.85, true), 1)},
			false, "insufficient_evidence_count(<2)"},
		{"a retry's word finds it strongly, the question's words found it too", rules,
			[]c.EvidenceItem{article("saml", 0.8, "единый")},
			[]c.QueryTrace{search("настроить единый вход saml портале", "saml", 0.45, false), retried(search("единый", "saml", 0.8, true), 1)}, true, "ok"},
		{"no evidence at all", rules, nil, []c.QueryTrace{search("saml", "saml", 0.85, true)}, false, "insufficient_evidence_count(<2)"},
		{"the seed's rules count only", seedRules,
			[]c.EvidenceItem{article("saml", 0.95, "saml")}, []c.QueryTrace{search("saml", "saml", 0.95, true)}, false, "insufficient_evidence_count(<2)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := CheckEvidence(EvidenceCase{RequestType: c.RequestHowtoPolicy, Track: c.TrackQuality, Evidence: tc.evidence, Searches: tc.searches}, tc.rules)
			assert.Equal(t, tc.ok, got.OK, got.Reason)
			assert.Equal(t, tc.reason, got.Reason)
		})
	}
}

// A second relevant article means the knowledge base does have more on the
// topic: with quality_min_items 3 two relevant ones are not enough.
func TestSoleArticleNeedsNothingElseRelevant(t *testing.T) {
	rules := DefaultEvidenceRules()
	rules.QualityMinItems, rules.QualityMinSources = 3, 1
	rules.SoleArticleConfidence, rules.RelevanceThreshold = 0.7, 0.5
	ev := []c.EvidenceItem{article("saml", 0.85, "saml"), article("oidc", 0.55, "saml")}
	cs := EvidenceCase{RequestType: c.RequestHowtoPolicy, Track: c.TrackQuality, Evidence: ev, Searches: []c.QueryTrace{search("saml", "saml", 0.85, true)}}
	assert.False(t, SoleArticleSuffices(cs, rules))
	cs.Evidence[1].Confidence = 0.2
	assert.True(t, SoleArticleSuffices(cs, rules), "a weak second article is no more on the topic")
}

func TestRetryCanFindMore(t *testing.T) {
	found := func(attempts ...int) []c.EvidenceItem {
		var ev []c.EvidenceItem
		for _, a := range attempts {
			ev = append(ev, c.EvidenceItem{Source: c.SourceDoc, Ref: "a", Attempt: a})
		}
		return ev
	}
	searched := func(attempts ...int) []c.QueryTrace {
		var out []c.QueryTrace
		for _, a := range attempts {
			out = append(out, c.QueryTrace{Tool: "search_kb", Query: "q", Attempt: a})
		}
		return out
	}
	tests := []struct {
		name     string
		ev       []c.EvidenceItem
		searches []c.QueryTrace
		retries  int
		want     bool
	}{
		{"the first retry may always search with other words", nil, nil, 0, true},
		{"a retry that found something new may be followed by another", found(0, 1), searched(0, 1), 1, true},
		{"a retry that searched and found nothing new is not repeated", found(0), searched(0, 1), 1, false},
		{"a retry that searched and found nothing at all is not repeated", nil, searched(1), 1, false},
		{"a retry that did not search has not looked yet", found(0), searched(0), 1, true},
		{"only the last retry counts", found(0, 1), searched(0, 1, 2), 2, false},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, RetryCanFindMore(tc.ev, tc.searches, tc.retries), tc.name)
	}
}

func TestFastWeakEvidence(t *testing.T) {
	rules := DefaultEvidenceRules()
	rules.RelevanceThreshold = 0.5
	fast := func(rt c.RequestType, ev ...c.EvidenceItem) c.CheckResult {
		return CheckEvidence(EvidenceCase{RequestType: rt, Track: c.TrackFast, Evidence: ev}, rules)
	}
	got := fast(c.RequestKnowledgeQA, article("a", 0.3, "q"), article("b", 0.2, "q"))
	assert.Equal(t, c.CheckResult{Reason: "weak_evidence_fast_track", RequiredActions: []c.RequiredAction{c.ActRestrictScope}}, got,
		"found, but nothing clearly on the question")
	assert.True(t, fast(c.RequestKnowledgeQA, article("a", 0.3, "q"), article("b", 0.6, "q")).OK, "one relevant article is enough on FAST")
	assert.True(t, fast(c.RequestCasual, article("a", 0.1, "q")).OK, "small talk needs no evidence")
	assert.Equal(t, "no_evidence_fast_track", fast(c.RequestKnowledgeQA).Reason)
	rules.RelevanceThreshold = 0
	assert.True(t, fast(c.RequestKnowledgeQA, article("a", 0.1, "q")).OK, "no relevance bar: the seed's count only")
}

func TestContractFor(t *testing.T) {
	spec := c.ArchitectSpec{ResponseFormat: "markdown", RequiredSections: []string{"Steps"}, DomainTerms: []string{"guard"},
		ForbiddenContent: []string{"password"}}
	assert.Equal(t, spec, ContractFor(c.TrackQuality, spec), "QUALITY is held to the whole contract (seed 004 §5)")
	fast := ContractFor(c.TrackFast, spec)
	assert.Empty(t, fast.RequiredSections)
	assert.Empty(t, fast.DomainTerms)
	assert.Equal(t, []string{"password"}, fast.ForbiddenContent, "forbidden content is policy, on every track")
	assert.True(t, CheckContract(fast, "Set the mode.").OK, "no sections or terms asked of a FAST answer")
	assert.False(t, CheckContract(fast, "The password is hunter2.").OK)
	assert.False(t, CheckContract(fast, " ").OK, "an empty draft is no answer on any track")
	assert.False(t, CheckContract(ContractFor(c.TrackQuality, spec), "Set the mode.").OK)
}
