package contracts

// Action is the route a turn takes after SGR planning. Its value is also the
// name of the template that renders the synthetic assistant message.
type Action string

// The four actions of decision table DT-002.
const (
	ActionNormal        Action = "normal"
	ActionClarify       Action = "clarify"
	ActionBlock         Action = "block"
	ActionGuardianBlock Action = "guardian_block"
)

// Actions lists the actions in DT-002's order: the one list the table's
// output values, the graph's routes and the eval's labels are checked
// against.
func Actions() []Action {
	return []Action{ActionNormal, ActionClarify, ActionBlock, ActionGuardianBlock}
}

// RequestType classifies what a request asks for; it decides which evidence
// sources are required (seed 004 §3) and which track the turn takes.
type RequestType string

// Request types of the evidence rules.
const (
	RequestStatusMetric   RequestType = "STATUS_METRIC"
	RequestStatusSummary  RequestType = "STATUS_SUMMARY"
	RequestStatusList     RequestType = "STATUS_LIST"
	RequestHowtoPolicy    RequestType = "HOWTO_POLICY"
	RequestDesignArch     RequestType = "DESIGN_ARCH"
	RequestDataDefinition RequestType = "DATA_DEFINITION"
	RequestTroubleshoot   RequestType = "TROUBLESHOOTING"
	RequestKnowledgeQA    RequestType = "KNOWLEDGE_QA"
	RequestCasual         RequestType = "CASUAL"
)

// Track is how strict the Guardian is with a turn: QUALITY demands more
// evidence and checks the answer contract, FAST accepts less.
type Track string

// The two tracks.
const (
	TrackQuality Track = "QUALITY"
	TrackFast    Track = "FAST"
)
