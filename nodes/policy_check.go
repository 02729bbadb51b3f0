package nodes

import (
	"context"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/events"
	"github.com/sgrgraph/sgrgraph/guards"
	"github.com/sgrgraph/sgrgraph/tables"
)

// PolicyCheck configures the query policy's second look, once the plan
// has given the request type: the role's permissions.
type PolicyCheck struct {
	// Policy is the query policy (L0); nil allows everything.
	Policy *guards.QueryPolicy
	// Enforcement is DT-001, whose first row refuses a policy DENY.
	Enforcement *tables.Table
	// Mode is the guard mode DT-001 reads.
	Mode string
}

// Node checks the query policy with the asker's role and the request type
// of the plan, before any search (seed 004 §11: the policy check comes
// first and no retry follows it). The door (guardian_verify) could not
// check the role: the request type was not known yet. A DENY is decided by
// DT-001, as at the door, and ends the turn with a FAIL that carries no
// required action. Without a policy the door's decision stands and nothing
// is evaluated.
func (c PolicyCheck) Node() Func {
	inputs := EnforcementInputs(c.Mode)
	return func(ctx context.Context, s *contracts.ChatState) (*contracts.ChatState, error) {
		if c.Policy == nil {
			return s, nil
		}
		p := c.Policy.Check(s.UserMessage, s.UserRole, s.RequestType)
		s.Policy = &p
		res, err := decide(s, c.Enforcement, inputs(s))
		if err != nil {
			return nil, err
		}
		if res.Get("decision") == "Block" {
			refuseByPolicy(ctx, s)
		}
		return s, nil
	}
}

// refuseByPolicy marks a turn the query policy denied: action block and a
// FAIL verdict with the policy's reasons and no required action, since no
// retry can mend a denial (seed 004 §11).
func refuseByPolicy(ctx context.Context, s *contracts.ChatState) {
	s.Action = contracts.ActionBlock
	s.Verdict = &contracts.Verdict{Verdict: contracts.VerdictFail, RiskLevel: contracts.RiskHigh,
		Reasons: s.Policy.Reasons, RequiredActions: []contracts.RequiredAction{}}
	events.Emit(ctx, contracts.Event{Kind: contracts.EventVerdict, Verdict: s.Verdict})
}
