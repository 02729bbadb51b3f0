package nodes

import (
	"context"
	"slices"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/events"
	"github.com/sgrgraph/sgrgraph/guards"
	"github.com/sgrgraph/sgrgraph/tables"
)

// ContractCheck configures the Guardian's contract check and verdict.
type ContractCheck struct {
	// Verdicts is DT-005.
	Verdicts *tables.Table
	// Published are the values that read as personal data but that the
	// knowledge base publishes (a support line): a draft may quote them.
	Published guards.Published
}

// VerdictInputs reads DT-005's inputs off the state.
func VerdictInputs(s *contracts.ChatState) map[string]any {
	ok := func(r *contracts.CheckResult) bool { return r == nil || r.OK }
	return map[string]any{
		"policy_ok":      s.Policy == nil || s.Policy.Decision != contracts.PolicyDeny,
		"evidence_ok":    ok(s.EvidenceCheck),
		"evidence_items": len(s.Evidence),
		"retry_useful":   guards.RetryCanFindMore(s.Evidence, s.QueryTraces, s.RetryCount),
		"contract_ok":    ok(s.ContractCheck),
		"track":          string(orTrack(s.Track)),
		"retry_count":    s.RetryCount,
	}
}

func orTrack(t contracts.Track) contracts.Track {
	if t == "" {
		return contracts.TrackFast
	}
	return t
}

// Node checks the draft against the part of the answer contract its track
// is held to (seed 004 §4-§5), then DT-005 gives the verdict. The query
// policy was checked before any search (policy_check); its result is
// DT-005's first input. The Guardian judges only: it never writes or
// edits the answer.
func (c ContractCheck) Node() Func {
	return func(ctx context.Context, s *contracts.ChatState) (*contracts.ChatState, error) {
		res := c.Published.CheckContract(guards.ContractFor(s.Track, s.Spec), s.Draft)
		s.ContractCheck = &res
		out, err := decide(s, c.Verdicts, VerdictInputs(s))
		if err != nil {
			return nil, err
		}
		v := &contracts.Verdict{Verdict: contracts.VerdictKind(out.Get("verdict")), RiskLevel: contracts.RiskLevel(out.Get("risk_level")),
			Reasons: []string{}, RequiredActions: []contracts.RequiredAction{}, SetAside: slices.Clone(s.SetAside)}
		if s.Policy != nil && s.Policy.Decision == contracts.PolicyDeny {
			v.Reasons = append(v.Reasons, s.Policy.Reasons...)
		}
		for _, r := range []*contracts.CheckResult{s.EvidenceCheck, s.ContractCheck} {
			if r != nil && !r.OK {
				v.Reasons = append(v.Reasons, r.Reason)
				for _, a := range r.RequiredActions {
					if !slices.Contains(v.RequiredActions, a) {
						v.RequiredActions = append(v.RequiredActions, a)
					}
				}
			}
		}
		// A RETRY asks for what the failed checks need; a FAIL or PASS
		// carries the table's one action: none for a policy FAIL (seed 004
		// §11) or a clean PASS, RESTRICT_SCOPE for a restricted PASS, which
		// finalize applies.
		if v.Verdict != contracts.VerdictRetry {
			v.RequiredActions = []contracts.RequiredAction{}
			if a := out.Get("required_action"); a != "-" && a != "" {
				v.RequiredActions = append(v.RequiredActions, contracts.RequiredAction(a))
			}
		}
		s.Verdict = v
		events.Emit(ctx, contracts.Event{Kind: contracts.EventVerdict, Verdict: v})
		return s, nil
	}
}
