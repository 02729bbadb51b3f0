package nodes

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/tables"
)

// HumanReview holds a draft for a person when the configuration says so:
// a draft the Guardian failed, or the answer to a request the guard found
// Controversial. The person approves it, edits it or rejects it; the
// Guardian still never writes the answer. With On empty it asks no one and
// every turn passes on as DT-005 decided: the default graph keeps the node
// whether review is configured or not.
type HumanReview struct {
	// On lists when to ask: contracts.ReviewOnFail, ReviewOnControversial.
	On []string
	// Ask puts the request to a person and returns the decision; the agent
	// pauses the run there (graph.Interrupt) until the person answers.
	Ask func(ctx context.Context, r contracts.ReviewRequest) (contracts.ReviewAnswer, error)
	// Verdicts is DT-005, whose recorded decision says where the turn goes
	// when no one is asked.
	Verdicts *tables.Table
}

// Node asks when the rules say so and records the decision.
func (c HumanReview) Node() Func {
	return func(ctx context.Context, s *contracts.ChatState) (*contracts.ChatState, error) {
		reason := c.reason(s)
		if reason == "" {
			return s, nil
		}
		req := contracts.ReviewRequest{Reason: reason, Question: s.UserMessage, Draft: s.Draft}
		if s.Verdict != nil {
			req.Verdict, req.Reasons = string(s.Verdict.Verdict), s.Verdict.Reasons
		}
		answer, err := c.Ask(ctx, req)
		if err != nil {
			return nil, err
		}
		switch answer.Decision {
		case contracts.ReviewApprove, contracts.ReviewReject:
		case contracts.ReviewEdit:
			if strings.TrimSpace(answer.Text) == "" {
				return nil, fmt.Errorf("review: an edit needs the text of the answer")
			}
			s.Draft = answer.Text
		default:
			return nil, fmt.Errorf("review: decision %q is not approve, edit or reject", answer.Decision)
		}
		s.Review = &answer
		note(s, HumanReviewName, "a person reviewed the draft ("+reason+"): "+answer.Decision)
		return s, nil
	}
}

// reason is why the draft must be reviewed, or "". A draft the query
// policy denied is not a person's to let out.
func (c HumanReview) reason(s *contracts.ChatState) string {
	if s.Draft == "" || (s.Policy != nil && s.Policy.Decision == contracts.PolicyDeny) {
		return ""
	}
	switch {
	case slices.Contains(c.On, contracts.ReviewOnFail) && s.Verdict != nil && s.Verdict.Verdict == contracts.VerdictFail:
		return contracts.ReviewOnFail
	case slices.Contains(c.On, contracts.ReviewOnControversial) && s.Moderation != nil && s.Moderation.Level == contracts.LevelControversial:
		return contracts.ReviewOnControversial
	}
	return ""
}

// Route is where the turn goes after the review: the person's decision,
// or, when no one was asked, DT-005's recorded next step.
func (c HumanReview) Route() func(ctx context.Context, s *contracts.ChatState) (string, error) {
	return func(_ context.Context, s *contracts.ChatState) (string, error) {
		if s.Review != nil {
			if s.Review.Decision == contracts.ReviewReject {
				return SafeExitName, nil
			}
			return FinalizeName, nil
		}
		d, ok := s.Decision(c.Verdicts.ID)
		if !ok {
			return "", fmt.Errorf("%s: no decision recorded before the review", c.Verdicts.ID)
		}
		return d.Outputs["next"], nil
	}
}
