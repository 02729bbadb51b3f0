package guards

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// SourceRule is one row of the evidence rules by request type (seed 004 §3).
type SourceRule struct {
	// AnyOf: at least one of these sources must be present.
	AnyOf []contracts.EvidenceSource `json:"any_of,omitempty"`
	// AllOf: every one of these sources must be present.
	AllOf []contracts.EvidenceSource `json:"all_of,omitempty"`
	// Forbidden: none of these sources may be used.
	Forbidden []contracts.EvidenceSource `json:"forbidden,omitempty"`
	// QualityOnly enforces AnyOf and AllOf on the QUALITY track only, as the
	// seed's code does for design and policy requests.
	QualityOnly bool `json:"quality_only,omitempty"`
}

// EvidenceRules are the numbers and source rules of the evidence check.
type EvidenceRules struct {
	QualityMinItems   int     `json:"quality_min_items"`
	QualityMinSources int     `json:"quality_min_sources"`
	MinAvgConfidence  float64 `json:"min_avg_confidence"`
	FastMinItems      int     `json:"fast_min_items"`
	// SoleArticleConfidence lets one article meet the QUALITY count when
	// a search of the question's words ranks it first with at least this
	// score and the searches found nothing else relevant
	// (SoleArticleSuffices); 0 keeps the seed's count as it is.
	SoleArticleConfidence float64 `json:"sole_article_confidence,omitempty"`
	// RelevanceThreshold is the article score that counts as relevant to
	// the question (kb.relevance_threshold).
	RelevanceThreshold float64                              `json:"relevance_threshold,omitempty"`
	Sources            map[contracts.RequestType]SourceRule `json:"sources"`
}

// EvidenceCase is what the evidence check judges: the request, its track,
// the evidence gathered and the searches that gathered it.
type EvidenceCase struct {
	RequestType contracts.RequestType
	Track       contracts.Track
	Evidence    []contracts.EvidenceItem
	// Searches are the turn's retrieval calls with their retrieval
	// confidence; the sole-article rule reads them.
	Searches []contracts.QueryTrace
	// SetAside are the retrieved pieces kept out of Evidence as untrusted
	// (they give the assistant orders). They count for nothing: the
	// evidence is judged without them, and a turn whose every piece was set
	// aside has no evidence, as one whose searches found nothing.
	SetAside []contracts.SetAside
}

// DefaultEvidenceRules returns every row of seed 004 §3. The seed's neo4j is
// our graph source. TROUBLESHOOTING's "db, neo4j" is read as either one: the
// seed writes both where it elsewhere writes OR, and a failure is evidenced
// by live data or by the relationships around it, not necessarily both.
func DefaultEvidenceRules() EvidenceRules {
	status := SourceRule{AllOf: src("db"), Forbidden: src("doc")}
	docOrPolicy := SourceRule{AnyOf: src("doc", "policy"), QualityOnly: true}
	return EvidenceRules{
		QualityMinItems: 2, QualityMinSources: 2, MinAvgConfidence: 0.60, FastMinItems: 1,
		Sources: map[contracts.RequestType]SourceRule{
			contracts.RequestStatusMetric:   status,
			contracts.RequestStatusSummary:  status,
			contracts.RequestStatusList:     status,
			contracts.RequestHowtoPolicy:    docOrPolicy,
			contracts.RequestDesignArch:     docOrPolicy,
			contracts.RequestDataDefinition: docOrPolicy,
			contracts.RequestTroubleshoot:   {AnyOf: src("db", "graph"), QualityOnly: true},
			contracts.RequestKnowledgeQA:    {AnyOf: src("doc", "graph"), QualityOnly: true},
			contracts.RequestCasual:         {},
		},
	}
}

func src(names ...string) []contracts.EvidenceSource {
	out := make([]contracts.EvidenceSource, len(names))
	for i, n := range names {
		out[i] = contracts.EvidenceSource(n)
	}
	return out
}

// Validate names each field outside its limits.
func (r EvidenceRules) Validate() error {
	var errs []error
	if r.QualityMinItems < 0 || r.QualityMinItems > 20 {
		errs = append(errs, fmt.Errorf("quality_min_items: %d is outside 0..20", r.QualityMinItems))
	}
	if r.QualityMinSources < 0 || r.QualityMinSources > 4 {
		errs = append(errs, fmt.Errorf("quality_min_sources: %d is outside 0..4", r.QualityMinSources))
	}
	if r.MinAvgConfidence < 0 || r.MinAvgConfidence > 1 {
		errs = append(errs, fmt.Errorf("min_avg_confidence: %g is outside [0,1]", r.MinAvgConfidence))
	}
	if r.FastMinItems < 0 || r.FastMinItems > 20 {
		errs = append(errs, fmt.Errorf("fast_min_items: %d is outside 0..20", r.FastMinItems))
	}
	if r.SoleArticleConfidence < 0 || r.SoleArticleConfidence > 1 {
		errs = append(errs, fmt.Errorf("sole_article_confidence: %g is outside [0,1]", r.SoleArticleConfidence))
	}
	return errors.Join(errs...)
}

// CheckEvidence judges whether the evidence gathered is enough for the
// request type on the track, in the order of the seed's check: count,
// diversity, forbidden and required sources, average confidence. One
// strong article meets the QUALITY count when the knowledge base has
// nothing more on the topic (SoleArticleSuffices). Whatever it decides, the
// result names what was set aside, so the verdict on the evidence says
// what it was given and what it was not.
func CheckEvidence(c EvidenceCase, r EvidenceRules) contracts.CheckResult {
	res := checkEvidence(c, r)
	for _, a := range c.SetAside {
		res.SetAside = append(res.SetAside, a.Ref)
	}
	return res
}

func checkEvidence(c EvidenceCase, r EvidenceRules) contracts.CheckResult {
	rt, track, ev := c.RequestType, c.Track, c.Evidence
	rule, known := r.Sources[rt]
	if rt != "" && !known {
		return fail(fmt.Sprintf("unknown_request_type(%s)", rt), contracts.ActRefineQuery)
	}
	quality := track == contracts.TrackQuality
	sources := sourcesOf(ev)
	if quality && len(ev) < r.QualityMinItems && !SoleArticleSuffices(c, r) {
		return fail(fmt.Sprintf("insufficient_evidence_count(<%d)", r.QualityMinItems), contracts.ActAddEvidence, contracts.ActRetrieveMore)
	}
	if quality && len(sources) < r.QualityMinSources {
		return fail(fmt.Sprintf("low_source_diversity(<%d)", r.QualityMinSources), contracts.ActDiversifySources, contracts.ActRetrieveMore)
	}
	if res := checkSources(rt, rule, sources, quality); !res.OK {
		return res
	}
	if quality && len(ev) > 0 {
		if avg := averageConfidence(ev); avg < r.MinAvgConfidence {
			return fail(fmt.Sprintf("low_evidence_confidence(avg=%.2f)", avg), contracts.ActRetrieveMore, contracts.ActRefineQuery)
		}
	}
	// Seed 004 §3 requires no source at all for CASUAL: a greeting is
	// answered without a search.
	if !quality && len(ev) < r.FastMinItems && rt != contracts.RequestCasual {
		return fail("no_evidence_fast_track", contracts.ActRetrieveMore, contracts.ActRestrictScope)
	}
	// Found, but nothing clearly on the question: the FAST track answers
	// with its scope restricted (§3: restrict scope, no definitive claims).
	if !quality && len(ev) > 0 && r.RelevanceThreshold > 0 && rt != contracts.RequestCasual && !anyRelevant(ev, r.RelevanceThreshold) {
		return fail("weak_evidence_fast_track", contracts.ActRestrictScope)
	}
	return contracts.CheckResult{OK: true, Reason: "ok"}
}

func checkSources(rt contracts.RequestType, rule SourceRule, have []contracts.EvidenceSource, quality bool) contracts.CheckResult {
	for _, f := range rule.Forbidden {
		if slices.Contains(have, f) {
			if isStatus(rt) && f == contracts.SourceDoc {
				return fail("status_request_must_not_use_doc_as_primary", contracts.ActRemoveDocEvidence, contracts.ActUseDBOnly)
			}
			return fail(fmt.Sprintf("%s_must_not_use_%s", strings.ToLower(string(rt)), f), contracts.ActRegenerateDraft)
		}
	}
	if rule.QualityOnly && !quality {
		return contracts.CheckResult{OK: true, Reason: "ok"}
	}
	for _, need := range rule.AllOf {
		if !slices.Contains(have, need) {
			if isStatus(rt) && need == contracts.SourceDB {
				return fail("status_request_requires_db", contracts.ActUseDBOnly, contracts.ActRetrieveDB)
			}
			return fail(fmt.Sprintf("%s_requires_%s", strings.ToLower(string(rt)), need), retrieveAction(need))
		}
	}
	if len(rule.AnyOf) > 0 && !slices.ContainsFunc(rule.AnyOf, func(s contracts.EvidenceSource) bool { return slices.Contains(have, s) }) {
		if slices.Equal(rule.AnyOf, src("doc", "policy")) {
			return fail("design_policy_requires_doc_or_policy", contracts.ActRetrieveDoc, contracts.ActRetrievePolicy)
		}
		actions := make([]contracts.RequiredAction, 0, len(rule.AnyOf))
		names := make([]string, 0, len(rule.AnyOf))
		for _, s := range rule.AnyOf {
			actions = appendUnique(actions, retrieveAction(s))
			names = append(names, string(s))
		}
		return fail(fmt.Sprintf("%s_requires_%s", strings.ToLower(string(rt)), strings.Join(names, "_or_")), actions...)
	}
	return contracts.CheckResult{OK: true, Reason: "ok"}
}

func isStatus(rt contracts.RequestType) bool {
	return rt == contracts.RequestStatusMetric || rt == contracts.RequestStatusSummary || rt == contracts.RequestStatusList
}

func retrieveAction(s contracts.EvidenceSource) contracts.RequiredAction {
	switch s {
	case contracts.SourceDB:
		return contracts.ActRetrieveDB
	case contracts.SourceDoc:
		return contracts.ActRetrieveDoc
	case contracts.SourcePolicy:
		return contracts.ActRetrievePolicy
	}
	return contracts.ActRetrieveMore
}

func sourcesOf(ev []contracts.EvidenceItem) []contracts.EvidenceSource {
	var out []contracts.EvidenceSource
	for _, e := range ev {
		if !slices.Contains(out, e.Source) {
			out = append(out, e.Source)
		}
	}
	return out
}

func anyRelevant(ev []contracts.EvidenceItem, threshold float64) bool {
	for _, e := range ev {
		if e.Confidence >= threshold {
			return true
		}
	}
	return false
}

func averageConfidence(ev []contracts.EvidenceItem) float64 {
	sum := 0.0
	for _, e := range ev {
		sum += e.Confidence
	}
	return sum / float64(len(ev))
}

func fail(reason string, actions ...contracts.RequiredAction) contracts.CheckResult {
	return contracts.CheckResult{OK: false, Reason: reason, RequiredActions: actions}
}

func appendUnique(list []contracts.RequiredAction, a contracts.RequiredAction) []contracts.RequiredAction {
	if slices.Contains(list, a) {
		return list
	}
	return append(list, a)
}
