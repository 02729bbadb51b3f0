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
)

// UIMessage is one message meant for the person, never for the model. It
// carries no scores and no internal analysis.
type UIMessage struct {
	Type    UIType `json:"ui_type"`
	Content string `json:"content"`
}
