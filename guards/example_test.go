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

// A help centre's own support address is an answer, a customer's is not.
func ExamplePublishedIn() {
	published := guards.PublishedIn("# Contact us\n\nWrite to help@example.com on weekdays.")
	for _, draft := range []string{"Write to help@example.com [1].", "We wrote to ivan@example.com [1]."} {
		res := published.CheckContract(contracts.ArchitectSpec{}, draft)
		fmt.Println(res.OK, res.Reason, published.Mask(draft))
	}
	// Output:
	// true ok Write to help@example.com [1].
	// false sensitive_data_detected=[email] We wrote to iv************om [1].
}
