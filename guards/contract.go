package guards

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// CheckContract judges a draft answer against its contract (seed 004 §4):
// an answer at all, required sections, forbidden content, sensitive data,
// and the use of at least one domain term. Forbidden content and domain terms are matched
// without regard to case, so "Guardian" counts for "guardian".
//
// Every value that reads as personal data fails it; Published.CheckContract
// allows those the knowledge base publishes.
func CheckContract(spec contracts.ArchitectSpec, draft string) contracts.CheckResult {
	return checkContract(spec, draft, FindSensitiveData)
}

// checkContract is the check, with find the sensitive data the draft may
// not hold.
func checkContract(spec contracts.ArchitectSpec, draft string, find func(string) []SensitiveMatch) contracts.CheckResult {
	// An empty draft is what a failed or silent model step leaves; it must
	// never pass as an answer, whatever the contract asks.
	if strings.TrimSpace(draft) == "" {
		return fail("empty_draft", contracts.ActRegenerateDraft)
	}
	if missing := missingSections(spec.RequiredSections, draft); len(missing) > 0 {
		return fail(fmt.Sprintf("missing_required_sections=%v", missing), contracts.ActAddRequiredSections, contracts.ActRegenerateDraft)
	}
	lower := strings.ToLower(draft)
	var hits []string
	for _, f := range spec.ForbiddenContent {
		if f != "" && strings.Contains(lower, strings.ToLower(f)) {
			hits = append(hits, f)
		}
	}
	if len(hits) > 0 {
		return fail(fmt.Sprintf("forbidden_content_detected=%v", hits), contracts.ActRemoveForbiddenContent, contracts.ActRegenerateDraft)
	}
	if found := find(draft); len(found) > 0 {
		return fail(fmt.Sprintf("sensitive_data_detected=%v", kinds(found)), contracts.ActRemoveForbiddenContent, contracts.ActRegenerateDraft)
	}
	if len(spec.DomainTerms) > 0 && !usesAny(lower, spec.DomainTerms) {
		return fail("domain_terms_not_used", contracts.ActUseDomainTerms, contracts.ActRegenerateDraft)
	}
	return contracts.CheckResult{OK: true, Reason: "ok"}
}

// missingSections finds sections that appear neither as text nor as a
// Markdown header of any level.
func missingSections(sections []string, draft string) []string {
	var missing []string
	for _, s := range sections {
		if s == "" || strings.Contains(draft, s) {
			continue
		}
		header := regexp.MustCompile(`(?im)^#{1,6}\s*` + regexp.QuoteMeta(s))
		if !header.MatchString(draft) {
			missing = append(missing, s)
		}
	}
	return missing
}

func usesAny(lowerDraft string, terms []string) bool {
	for _, t := range terms {
		if t != "" && strings.Contains(lowerDraft, strings.ToLower(t)) {
			return true
		}
	}
	return false
}

func kinds(found []SensitiveMatch) []string {
	var out []string
	for _, f := range found {
		if !slices.Contains(out, f.Kind) {
			out = append(out, f.Kind)
		}
	}
	return out
}

// ContractFor is the part of the contract a track is held to. Seed 004 §5
// checks the contract on the QUALITY track only, and so do the consistency
// rules here (§1.3: required sections and domain terms). Forbidden content
// and personal data are the policy axis of §1.1, and an empty draft is no
// answer at all: CheckContract applies those on every track.
func ContractFor(track contracts.Track, spec contracts.ArchitectSpec) contracts.ArchitectSpec {
	if track == contracts.TrackQuality {
		return spec
	}
	spec.RequiredSections, spec.DomainTerms = nil, nil
	return spec
}
