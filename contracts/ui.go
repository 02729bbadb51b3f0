package contracts

// UIType tells a front end how to show a UI message.
type UIType string

// The kinds of UI message a turn produces.
const (
	UIIntent        UIType = "intent"        // "How I understood your request: ..."
	UIResponse      UIType = "response"      // the response section of the synthetic message
	UIClarification UIType = "clarification" // a question back to the user
	UIRefusal       UIType = "refusal"       // a block or safety refusal
	UIAnswer        UIType = "answer"        // the final answer
	UISources       UIType = "sources"       // the list of cited articles
	// Shown only where DT-004's ui row is edited to allow them:
	UIAnalysis UIType = "analysis" // the analysis section of the synthetic message
	UIPlan     UIType = "plan"     // the plan's JSON (the tool trace)
)

// UIMessage is one message meant for the person, never for the model. It
// carries no scores and no internal analysis unless DT-004 routes them to
// the UI.
type UIMessage struct {
	Type    UIType `json:"ui_type"`
	Content string `json:"content"`
}
