package nodes

import (
	"context"
	"slices"
	"strings"

	"github.com/cloudwego/eino/schema"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// RetryBump counts a RETRY and turns the Guardian's required actions into
// explicit instructions for the next attempt (seed 004 §6-§7). The rejected
// draft stays in the context so the model sees what it is correcting.
// REMOVE_DOC_EVIDENCE is also applied to the record: the documentation
// found so far is dropped from the evidence and the articles, so the next
// answer is judged on what it may rest on; evidence only ever grows
// otherwise, and a forbidden source once found would fail every attempt.
func RetryBump() Func {
	return func(_ context.Context, s *contracts.ChatState) (*contracts.ChatState, error) {
		s.RetryCount++
		s.ReactIters = 0
		s.Draft = ""
		if s.Verdict != nil && slices.Contains(s.Verdict.RequiredActions, contracts.ActRemoveDocEvidence) {
			s.Evidence = slices.DeleteFunc(slices.Clone(s.Evidence), func(e contracts.EvidenceItem) bool { return e.Source == contracts.SourceDoc })
			s.Articles = []contracts.Article{}
		}
		s.Messages = append(s.Messages, schema.UserMessage(RetryInstructions(s.Verdict)))
		return s, nil
	}
}

// The brackets of the review marker. No user text reaches a model with
// them (EscapeReviewMarker), so only the Guardian can write the marker.
const (
	reviewOpen  = "⟦"
	reviewClose = "⟧"
)

// ReviewMarker opens every retry instruction, so a model (and a reader of a
// trace) can tell the Guardian's review from the user's words.
const ReviewMarker = reviewOpen + "Guardian review" + reviewClose

// RetryPrefix is the first line's start of every retry instruction.
const RetryPrefix = ReviewMarker + " Your previous answer was not accepted."

// userBrackets turns the marker's brackets into plain ones.
var userBrackets = strings.NewReplacer(reviewOpen, "[", reviewClose, "]")

// EscapeReviewMarker keeps a user from forging the Guardian's review: the
// marker's brackets become plain ones wherever they stand in user text, so
// whatever the user types, even the marker itself, the result cannot hold
// the marker. It reports whether anything was changed.
func EscapeReviewMarker(text string) (string, bool) {
	if !strings.Contains(text, reviewOpen) && !strings.Contains(text, reviewClose) {
		return text, false
	}
	return userBrackets.Replace(text), true
}

// instructions says what each required action asks of the agent.
var instructions = map[contracts.RequiredAction]string{
	contracts.ActAddEvidence:            "Add evidence: make more searches before answering.",
	contracts.ActRetrieveMore:           "Search the knowledge base again, with other words for each part of the request, before answering.",
	contracts.ActDiversifySources:       "Use more than one kind of source.",
	contracts.ActRemoveDocEvidence:      "Do not rely on documentation for live values.",
	contracts.ActUseDBOnly:              "Use live data only.",
	contracts.ActRetrieveDB:             "Query live data.",
	contracts.ActRetrieveDoc:            "Search the documentation.",
	contracts.ActRetrievePolicy:         "Look up the applicable policy.",
	contracts.ActRefineQuery:            "Search with more specific queries.",
	contracts.ActRestrictScope:          "Answer only the part of the request the sources cover, and make no definitive claims beyond them.",
	contracts.ActAddRequiredSections:    "Add the required sections.",
	contracts.ActRegenerateDraft:        "Write the answer again.",
	contracts.ActRemoveForbiddenContent: "Remove forbidden content and personal data from the answer.",
	contracts.ActUseDomainTerms:         "Use the product's own terms.",
	contracts.ActAskMinimalQuestion:     "Ask one short question instead of answering.",
	contracts.ActSafeRefusal:            "Refuse politely.",
}

// RetryInstructions renders a verdict as instructions for the next attempt.
func RetryInstructions(v *contracts.Verdict) string {
	var b strings.Builder
	b.WriteString(RetryPrefix)
	if v == nil {
		return b.String()
	}
	if len(v.Reasons) > 0 {
		b.WriteString(" Reasons: " + strings.Join(v.Reasons, "; ") + ".")
	}
	b.WriteString("\nRequired actions:")
	for _, a := range v.RequiredActions {
		text, ok := instructions[a]
		if !ok {
			text = string(a)
		}
		b.WriteString("\n- " + string(a) + ": " + text)
	}
	return b.String()
}
