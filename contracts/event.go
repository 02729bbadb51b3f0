package contracts

// EventKind names what happened during a turn.
type EventKind string

// The events a turn reports while it runs.
const (
	EventNodeStart  EventKind = "node_start"
	EventNodeEnd    EventKind = "node_end"
	EventUI         EventKind = "ui"          // a UI message was produced
	EventToken      EventKind = "token"       // a piece of the accepted answer: released after a PASS verdict, never a draft
	EventToolCall   EventKind = "tool_call"   // the agent called a tool
	EventToolResult EventKind = "tool_result" // a tool answered (or failed)
	EventVerdict    EventKind = "verdict"     // the Guardian judged a draft
	EventRetry      EventKind = "retry"       // a call to another service failed a try (Error says how)
)

// Event is one thing that happened during a turn, for a live view of it.
// Only the fields of its kind are set.
type Event struct {
	Kind       EventKind  `json:"kind"`
	Node       string     `json:"node,omitempty"`
	Text       string     `json:"text,omitempty"` // token text, tool arguments or tool result
	Tool       string     `json:"tool,omitempty"`
	UI         *UIMessage `json:"ui,omitempty"`
	Verdict    *Verdict   `json:"verdict,omitempty"`
	DurationMS float64    `json:"duration_ms,omitempty"`
	Error      string     `json:"error,omitempty"`
}
