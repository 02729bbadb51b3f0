package guards

import (
	"cmp"
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
	// RelevanceThreshold is the article score that counts as relevant to
	// the question (kb.relevance_threshold).
	RelevanceThreshold float64                              `json:"relevance_threshold,omitempty"`
	Sources            map[contracts.RequestType]SourceRule `json:"sources"`
}

// EvidenceCase is what the evidence check judges: the request, its track,
// the evidence gathered, the articles found and the draft that cites them.
type EvidenceCase struct {
	RequestType contracts.RequestType
	Track       contracts.Track
	Evidence    []contracts.EvidenceItem
	// Articles are the articles the searches found, in the order the
	// draft's citations [n] number them, with their retrieved chunks.
	Articles []contracts.Article
	// Searches are the turn's retrieval calls: a cited article's strength
	// is its score in the searches of the question's own words (attempt 0).
	Searches []contracts.QueryTrace
	// Draft is the answer being judged; its cited statements are checked
	// against the chunks of the articles they cite (CheckGrounding).
	Draft string
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
	return errors.Join(errs...)
}

// CheckEvidence judges whether the evidence gathered is enough for the
// request type on the track, in the order of the seed's check: count,
// diversity, forbidden and required sources, confidence; then whether the
// draft's cited statements are grounded in what they cite. Evidence is
// counted only where several kinds of source are asked for (a rule's
// all_of of two or more, or quality_min_sources of two or more): then the
// seed's count and diversity hold. Otherwise one strong article the draft
// is grounded in is enough, whatever else the searches matched, and the
// confidence is that of the articles the draft's supported statements cite
// (all the evidence when it cites none). Whatever it decides, the result
// names what was set aside, so the verdict on the evidence says what it
// was given and what it was not.
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
	several := len(rule.AllOf) >= 2 || r.QualityMinSources >= 2
	minItems := min(1, r.QualityMinItems)
	if several {
		minItems = r.QualityMinItems
	}
	if quality && len(ev) < minItems {
		return fail(fmt.Sprintf("insufficient_evidence_count(<%d)", minItems), contracts.ActAddEvidence, contracts.ActRetrieveMore)
	}
	if quality && several && len(sources) < r.QualityMinSources {
		return fail(fmt.Sprintf("low_source_diversity(<%d)", r.QualityMinSources), contracts.ActDiversifySources, contracts.ActRetrieveMore)
	}
	if res := checkSources(rt, rule, sources, quality); !res.OK {
		return res
	}
	g := CheckGrounding(c.Draft, append(withAllChunks(c.Articles, c.Searches), toolRecords(ev)...))
	if len(g.Unsupported) > 0 {
		return fail(g.Reason(), contracts.ActRegenerateDraft, contracts.ActRetrieveMore)
	}
	if quality && len(ev) > 0 {
		judged := ev
		if !several {
			judged = citedEvidence(ev, g.Cited)
		}
		if avg := averageConfidence(judged); avg < r.MinAvgConfidence {
			return fail(fmt.Sprintf("low_evidence_confidence(avg=%.2f)", avg), contracts.ActRetrieveMore, contracts.ActRefineQuery)
		}
		if best := slices.MaxFunc(onTheQuestion(judged, c.Searches), byConfidence).Confidence; !several && best < strongOnTheQuestion {
			return fail(fmt.Sprintf("no_strong_article(best=%.2f<%.2f)", best, strongOnTheQuestion), contracts.ActRetrieveMore, contracts.ActRefineQuery)
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

// onTheQuestion gives each item the best score the first attempt's
// searches, made from the question's words, gave its article, where they
// found it. A retry's search of one word finds an article strongly for
// that word alone: in a knowledge base of one article about a router,
// "router" does whatever was asked, and "How do I set up parental controls
// on the router?" would pass with a grounded quote about firmware (its
// first search, "set parental controls router", scores the article 0.27).
func onTheQuestion(ev []contracts.EvidenceItem, searches []contracts.QueryTrace) []contracts.EvidenceItem {
	out := slices.Clone(ev)
	for i, e := range out {
		best, seen := 0.0, false
		for _, s := range searches {
			if s.Attempt != 0 || s.Error != "" {
				continue
			}
			for _, a := range s.Articles {
				if cmpOr(a.URL, a.KBID) == e.Ref {
					best, seen = max(best, a.Score), true
				}
			}
		}
		if seen {
			out[i].Confidence = best
		}
	}
	return out
}

// withAllChunks gives each article every chunk any search retrieved of
// it: the list of found articles keeps an article as its first search
// returned it, and a later search may have brought other passages of it
// that the draft quotes.
// toolRecords are the evidence items that are no knowledge-base article
// (a tool's answer: a db lookup, an MCP server's result) as articles of one
// chunk, their text: the draft numbers them after the articles, and a
// statement citing one is checked against what the tool answered.
func toolRecords(ev []contracts.EvidenceItem) []contracts.Article {
	var out []contracts.Article
	for _, e := range ev {
		if e.Source == contracts.SourceDoc {
			continue
		}
		out = append(out, contracts.Article{KBID: e.Ref, Chunks: []contracts.Chunk{{Text: e.Snippet}}})
	}
	return out
}

func withAllChunks(articles []contracts.Article, searches []contracts.QueryTrace) []contracts.Article {
	out := slices.Clone(articles)
	for i := range out {
		out[i].Chunks = slices.Clone(out[i].Chunks)
		for _, s := range searches {
			for _, a := range s.Articles {
				if a.KBID != out[i].KBID || a.URL != out[i].URL {
					continue
				}
				for _, ch := range a.Chunks {
					if !slices.ContainsFunc(out[i].Chunks, func(have contracts.Chunk) bool { return have.ID == ch.ID && have.Text == ch.Text }) {
						out[i].Chunks = append(out[i].Chunks, ch)
					}
				}
			}
		}
	}
	return out
}

// strongOnTheQuestion is the score the one article that answers must
// reach in the searches of the question's words when one kind of source
// is asked for. A score is at most the share of the search's words the
// article holds, so the article holds at least two of five of them.
const strongOnTheQuestion = 0.4

func byConfidence(a, b contracts.EvidenceItem) int { return cmp.Compare(a.Confidence, b.Confidence) }

// citedEvidence are the items of the cited articles; all of them when
// the draft's supported statements cite none.
func citedEvidence(ev []contracts.EvidenceItem, cited []string) []contracts.EvidenceItem {
	var out []contracts.EvidenceItem
	for _, e := range ev {
		if slices.Contains(cited, e.Ref) {
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		return ev
	}
	return out
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

// RetryCanFindMore says whether another attempt could bring evidence the
// turn lacks. The first retry may: other words can find what the first
// searches did not. A later one may when the retry before it found
// something new, or did not search at all (it has not looked yet); a
// retry that searched and found only what the turn already had shows that
// searching again finds the same articles, and another attempt would only
// repeat the draft.
func RetryCanFindMore(ev []contracts.EvidenceItem, searches []contracts.QueryTrace, retryCount int) bool {
	if retryCount == 0 {
		return true
	}
	for _, e := range ev {
		if e.Attempt == retryCount {
			return true
		}
	}
	for _, s := range searches {
		if s.Attempt == retryCount {
			return false
		}
	}
	return true
}
