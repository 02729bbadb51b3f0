package guards_test

import (
	"fmt"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/guards"
)

func ExampleCheckEvidence() {
	ev := []contracts.EvidenceItem{{Source: contracts.SourceDoc, Ref: "c1", Snippet: "…", Confidence: 0.7}}
	res := guards.CheckEvidence(guards.EvidenceCase{RequestType: contracts.RequestDesignArch, Track: contracts.TrackQuality, Evidence: ev},
		guards.DefaultEvidenceRules())
	fmt.Println(res.OK, res.Reason, res.RequiredActions)
	// Output: false insufficient_evidence_count(<2) [ADD_EVIDENCE RETRIEVE_MORE]
}
