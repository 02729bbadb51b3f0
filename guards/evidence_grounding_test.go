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
// found is an article a search returned, with its retrieved chunks.
func found(ref string, score float64, chunks ...string) c.Article {
	a := c.Article{KBID: ref, Title: ref, Score: score}
	for i, t := range chunks {
		a.Chunks = append(a.Chunks, c.Chunk{ID: ref + "#" + string(rune('a'+i)), Text: t})
	}
	return a
}

func TestCheckGrounding(t *testing.T) {
	arts := []c.Article{
		found("backup", 0.8, "Take a snapshot with etcdctl snapshot save backup.db. Snapshots are consistent.",
			"Restore a snapshot with etcdutl snapshot restore before starting the members."),
		found("glossary", 0.3, "A member is one etcd process of a cluster."),
	}
	tests := []struct {
		name        string
		draft       string
		unsupported []string
		cited       []string
	}{
		{"a quote is grounded", "Take a snapshot with etcdctl snapshot save backup.db [1].", nil, []string{"backup"}},
		{"a paraphrase keeping the facts is grounded", "To restore, run etcdutl snapshot restore before you start members [1].", nil, []string{"backup"}},
		{"a claim the cited article does not make is named",
			"Snapshots are consistent [1]. Backups are encrypted with AES-256 by default [1].",
			[]string{"Backups are encrypted with AES-256 by default [1]"}, []string{"backup"}},
		{"citing the wrong article is not grounding", "Take a snapshot with etcdctl snapshot save backup.db [2].",
			[]string{"Take a snapshot with etcdctl snapshot save backup.db [2]"}, nil},
		{"a citation of no article is unsupported", "A member is one etcd process [7].", []string{"A member is one etcd process [7]"}, nil},
		{"either of two cited articles may ground it", "A member is one etcd process of a cluster [1][2].", nil, []string{"backup", "glossary"}},
		{"uncited lines are not judged", "Here is what the documentation says.\n\n- Snapshots are consistent [1].", nil, []string{"backup"}},
		{"marks that open a bullet cite its text", "- [1] Restore a snapshot with etcdutl snapshot restore.", nil, []string{"backup"}},
		{"Russian is stemmed by its own analyzer", "Снимок сохраняется командой save [1].", []string{"Снимок сохраняется командой save [1]"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := CheckGrounding(tc.draft, arts)
			assert.Equal(t, tc.unsupported, g.Unsupported)
			assert.Equal(t, tc.cited, g.Cited)
		})
	}
	ru := []c.Article{found("bekap", 0.9, "Резервные копии сохраняются каждую ночь в хранилище.")}
	assert.Empty(t, CheckGrounding("Резервная копия сохраняется каждую ночь [1].", ru).Unsupported, "stems match across word forms")
}

func TestGroundingReasonNamesTheStatements(t *testing.T) {
	g := Grounding{Unsupported: []string{"a [1]", "b [1]", "c [2]", "d [2]", "e [3]"}}
	assert.Equal(t, `unsupported_statements=["a [1]", "b [1]", "c [2]"] and 2 more`, g.Reason())
}

// One strong article the draft is grounded in passes the QUALITY track
// whatever else the searches matched, when the rules ask for one kind of
// source; a second weak article no longer fails the answer.
func TestOneGroundedArticlePasses(t *testing.T) {
	rules := DefaultEvidenceRules()
	rules.QualityMinSources = 1
	rules.MinAvgConfidence = 0.5
	arts := []c.Article{found("backup", 0.8, "Take a snapshot with etcdctl snapshot save backup.db."),
		found("faq", 0.1, "Etcd is a key value store.")}
	ev := []c.EvidenceItem{article("backup", 0.8, "snapshot"), article("faq", 0.1, "snapshot")}
	check := func(draft string, ev []c.EvidenceItem) c.CheckResult {
		return CheckEvidence(EvidenceCase{RequestType: c.RequestHowtoPolicy, Track: c.TrackQuality, Evidence: ev, Articles: arts, Draft: draft}, rules)
	}
	assert.Equal(t, c.CheckResult{OK: true, Reason: "ok"}, check("Take a snapshot with etcdctl snapshot save backup.db [1].", ev),
		"the weak second match neither counts nor lowers the confidence")
	assert.Equal(t, c.CheckResult{OK: true, Reason: "ok"}, check("Take a snapshot with etcdctl snapshot save backup.db [1].", ev[:1]),
		"one article, one kind of source asked for: no count")
	got := check("Etcd encrypts every snapshot [1].", ev)
	assert.False(t, got.OK)
	assert.Equal(t, `unsupported_statements=["Etcd encrypts every snapshot [1]"]`, got.Reason)
	assert.Equal(t, []c.RequiredAction{c.ActRegenerateDraft, c.ActRetrieveMore}, got.RequiredActions)
	assert.Equal(t, "low_evidence_confidence(avg=0.10)", check("Etcd is a key value store [2].", ev).Reason,
		"grounded in a weak article only")
	assert.Equal(t, "insufficient_evidence_count(<1)", check("", nil).Reason, "no evidence at all")

	rules.QualityMinSources = 2
	assert.Equal(t, "insufficient_evidence_count(<2)", CheckEvidence(EvidenceCase{RequestType: c.RequestHowtoPolicy, Track: c.TrackQuality,
		Evidence: ev[:1], Articles: arts, Draft: "Take a snapshot with etcdctl snapshot save backup.db [1]."}, rules).Reason,
		"two kinds asked for: the seed's count holds")
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
