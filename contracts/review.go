package contracts

// Why a draft goes to a person (guardian.human_review).
const (
	ReviewOnFail          = "fail"          // the Guardian failed the draft
	ReviewOnControversial = "controversial" // the safety guard found the request Controversial
)

// What a person decides about a draft.
const (
	ReviewApprove = "approve" // the draft goes out as it is
	ReviewEdit    = "edit"    // the person's text goes out instead
	ReviewReject  = "reject"  // no answer goes out: the turn ends safely
)

// ReviewRequest is what a person is asked to review: the question, the
// draft, and why it was held.
type ReviewRequest struct {
	Reason   string   `json:"reason"`
	Question string   `json:"question"`
	Draft    string   `json:"draft"`
	Verdict  string   `json:"verdict,omitempty"`
	Reasons  []string `json:"reasons,omitempty"`
}

// ReviewAnswer is the person's decision; Text is the edited answer. Note
// and Reviewer, when given, are kept with the turn: what the person said
// of the draft, and who they were (an API key's id, never the key).
type ReviewAnswer struct {
	Decision string `json:"decision"`
	Text     string `json:"text,omitempty"`
	Note     string `json:"note,omitempty"`
	Reviewer string `json:"reviewer,omitempty"`
}
