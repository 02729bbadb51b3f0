package nodes

import (
	"context"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/guards"
)

// EvidenceCheck configures the Guardian's evidence check.
type EvidenceCheck struct {
	Rules guards.EvidenceRules
}

// Node judges the evidence gathered so far against the request type and
// track (seed 004 §2), and the draft's cited statements against the
// retrieved chunks of the articles they cite (guards.CheckGrounding). An
// answer with no evidence fails here with RETRIEVE_MORE, which DT-005
// retries on either track; one whose statements its sources do not
// support fails with the statements named. It only records the result;
// contract_check turns both checks into the verdict. What the tool step
// set aside as untrusted (agent_tools) is not evidence, and the result
// names it.
func (c EvidenceCheck) Node() Func {
	return func(_ context.Context, s *contracts.ChatState) (*contracts.ChatState, error) {
		res := guards.CheckEvidence(guards.EvidenceCase{RequestType: s.RequestType, Track: s.Track, Evidence: s.Evidence,
			Articles: s.Articles, Searches: s.QueryTraces, Draft: s.Draft, SetAside: s.SetAside}, c.Rules)
		s.EvidenceCheck = &res
		return s, nil
	}
}
