package contracts

import (
	"github.com/cloudwego/eino/schema"

	"github.com/sgrgraph/sgrgraph/tables"
)

// ChatState is the one value every node of a turn reads and writes. The
// reduce tags say how parallel branches of a turn (the tool calls of one
// model step) combine: lists grow by what each branch added.
type ChatState struct {
	SessionID string `json:"session_id"`
	Turn      int    `json:"turn"`
	// UserMessage is this turn's input, as the user sent it.
	UserMessage string `json:"user_message"`
	// UserRole is checked by the query policy's permissions.
	UserRole string `json:"user_role,omitempty"`
	// Language is the answer language settled for this turn (ru, en, ...).
	Language string `json:"language,omitempty"`

	// Messages is the model context: what the next model call sees.
	Messages []*schema.Message `json:"messages" reduce:"append"`
	// UI is what the person sees.
	UI []UIMessage `json:"ui" reduce:"append"`

	// Structured metadata from here on.
	Moderation  *Moderation    `json:"moderation,omitempty"`
	Policy      *PolicyResult  `json:"policy,omitempty"`
	Plan        *SGRPlan       `json:"plan,omitempty"`
	Action      Action         `json:"action,omitempty"`
	RequestType RequestType    `json:"request_type,omitempty"`
	Track       Track          `json:"track,omitempty"`
	Spec        ArchitectSpec  `json:"architect_spec"`
	Draft       string         `json:"draft_answer,omitempty"`
	Answer      string         `json:"answer,omitempty"`
	Evidence    []EvidenceItem `json:"evidence" reduce:"append"`
	QueryTraces []QueryTrace   `json:"query_traces" reduce:"append"`
	Articles    []Article      `json:"articles" reduce:"append"`
	// SetAside are the retrieved pieces the Guardian kept out of Evidence,
	// Articles and the model context: they give the assistant orders.
	SetAside []SetAside `json:"set_aside,omitempty" reduce:"append"`
	// EvidenceCheck and ContractCheck are the Guardian's last two checks.
	EvidenceCheck *CheckResult `json:"evidence_check,omitempty"`
	ContractCheck *CheckResult `json:"contract_check,omitempty"`
	Verdict       *Verdict     `json:"verdict,omitempty"`
	// Review is a person's decision on the draft, when one was asked
	// (guardian.human_review).
	Review *ReviewAnswer `json:"review,omitempty"`
	// ToolCall is the one tool call a parallel branch of the agent's tool
	// step runs; ToolResults are what the calls returned, in call order,
	// until agent_tools records them as evidence.
	ToolCall    *schema.ToolCall `json:"tool_call,omitempty"`
	ToolResults []ToolResult     `json:"tool_results,omitempty" reduce:"append"`
	RetryCount  int              `json:"retry_count"`
	ReactIters  int              `json:"react_iters"`
	SGRCalls    int              `json:"sgr_calls"`
	Diagnostics Diagnostics      `json:"diagnostics"`
	// Decisions are the decision-table rows that fired, in order: a node
	// records each decision it owns and the edge after it routes on it.
	tables.Decisions
}

// Diagnostics is what a turn reports about itself: timings, tokens, the
// places a decision table overrode the model, and every error met on the way.
type Diagnostics struct {
	Nodes      []NodeRun   `json:"nodes" reduce:"append"`
	ModelCalls []ModelCall `json:"model_calls,omitempty" reduce:"append"`
	Overrides  []Override  `json:"overrides,omitempty" reduce:"append"`
	Errors     []NodeNote  `json:"errors,omitempty" reduce:"append"`
	Notes      []NodeNote  `json:"notes,omitempty" reduce:"append"`
	Retries    []Retry     `json:"retries,omitempty" reduce:"append"`
	Tokens     Tokens      `json:"tokens"`
}

// NodeRun is one execution of one node.
type NodeRun struct {
	Node             string  `json:"node"`
	DurationMS       float64 `json:"duration_ms"`
	PromptTokens     int     `json:"prompt_tokens,omitempty"`
	CompletionTokens int     `json:"completion_tokens,omitempty"`
	// Attempt is the node's attempt that finished it, when its retry
	// policy ran it more than once.
	Attempt int `json:"attempt,omitempty"`
}

// ModelCall is one call a node made to a chat model: what was offered and
// what it cost.
type ModelCall struct {
	Node             string   `json:"node"`
	Tools            []string `json:"tools,omitempty"`
	ToolChoice       string   `json:"tool_choice,omitempty"`
	DurationMS       float64  `json:"duration_ms"`
	PromptTokens     int      `json:"prompt_tokens,omitempty"`
	CompletionTokens int      `json:"completion_tokens,omitempty"`
	// TokensEstimated: the server sent no usage, the counts are sgrgraph's.
	TokensEstimated bool   `json:"tokens_estimated,omitempty"`
	Error           string `json:"error,omitempty"`
}

// Retry is one failed try of a call to another service: a model server, a
// guard server, a tool.
type Retry struct {
	Node    string  `json:"node"`
	Service string  `json:"service"`
	Try     int     `json:"try"`
	Status  int     `json:"status,omitempty"`
	Error   string  `json:"error"`
	WaitMS  float64 `json:"wait_ms"`
	Retried bool    `json:"retried"` // false: the call gave up with this try
}

// Tokens are the token counts of a turn, summed over its model calls.
type Tokens struct {
	Prompt     int `json:"prompt" reduce:"sum"`
	Completion int `json:"completion" reduce:"sum"`
	// Estimated: at least one call's counts were estimated.
	Estimated bool `json:"estimated,omitempty" reduce:"last"`
}

// Override records a decision table disagreeing with the model's own choice.
type Override struct {
	Table      string `json:"table"`
	Rule       int    `json:"rule"`
	Field      string `json:"field"`
	ModelValue string `json:"model_value"`
	TableValue string `json:"table_value"`
}

// NodeNote is a message from one node: an error it recovered from, or a note.
type NodeNote struct {
	Node    string `json:"node"`
	Message string `json:"message"`
}

// StructuredResult is everything a finished turn produced, for scripts,
// batch output and the server.
type StructuredResult struct {
	SessionID   string         `json:"session_id"`
	Turn        int            `json:"turn"`
	Action      Action         `json:"action"`
	Answer      string         `json:"answer"`
	UI          []UIMessage    `json:"ui_messages"`
	Moderation  *Moderation    `json:"moderation,omitempty"`
	Plan        *SGRPlan       `json:"plan,omitempty"`
	Verdict     *Verdict       `json:"verdict,omitempty"`
	Review      *ReviewAnswer  `json:"review,omitempty"`
	RetryCount  int            `json:"retry_count"`
	Evidence    []EvidenceItem `json:"evidence" reduce:"append"`
	QueryTraces []QueryTrace   `json:"query_traces"`
	Articles    []Article      `json:"articles"`
	Diagnostics Diagnostics    `json:"diagnostics"`
	// Decisions are the decision-table rows that fired, in order.
	Decisions []tables.Result `json:"decisions"`
	// Failure says why a turn of action "error" has no answer.
	Failure *Failure `json:"failure,omitempty"`
	// Context is the model context after the turn: the next turn's
	// history. It is not part of the printed result.
	Context []*schema.Message `json:"-"`
}
