package agent

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cloudwego/eino/schema"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/events"
	"github.com/sgrgraph/sgrgraph/nodes"
)

// Turn is one user message and what came before it.
type Turn struct {
	SessionID string
	// Number counts the session's turns from 1.
	Number  int
	Message string
	// History is the model context of the earlier turns (the Messages of
	// the last turn's state); the turn carries what Carry keeps of it.
	// A thread's turn reads its history from the thread instead.
	History []*schema.Message
	// Thread, when set, continues a conversation kept in the agent's
	// checkpoint store (Options.Store): the turn starts from the thread's
	// last state and its steps are checkpointed there.
	Thread string
	// Lock, when set, is the thread taken by the caller (LockThread) to
	// refuse a busy thread early; the turn runs under it and frees it.
	// Unset, the turn takes the thread itself, or fails with ErrThreadBusy.
	Lock *ThreadLock
	Role string
	// Language fixes the answer language; empty lets the turn settle it.
	Language string
	// Events, when set, receives the turn's events as they happen.
	Events events.Sink
	// User names whose long-term memory the turn reads and writes, with
	// memory.enabled: the preferences they state, kept across their
	// threads (memory.go). Tenant, when set, is the space user names
	// live in (serve: the API key's id), so that one tenant never reads
	// another's; with no User, the tenant is the user. Both empty: the
	// turn remembers nothing.
	User, Tenant string
	// QueryTraces asks for the turn's query traces in Run's result
	// whatever output.include_query_traces says: for a caller that reads
	// them, such as batch's found_articles and confidence columns.
	QueryTraces bool
}

// MaxMessageRunes bounds a user message.
const MaxMessageRunes = 16000

// NewState checks a turn's input and builds the state it starts from: the
// history with the user message appended, every list empty but present.
func NewState(t Turn) (*contracts.ChatState, error) {
	msg := strings.TrimSpace(t.Message)
	if msg == "" {
		return nil, errors.New("message: must not be empty")
	}
	if n := len([]rune(msg)); n > MaxMessageRunes {
		return nil, fmt.Errorf("message: %d characters, over the limit of %d", n, MaxMessageRunes)
	}
	if t.Language != "" && t.Language != "ru" && t.Language != "en" {
		return nil, fmt.Errorf("language: %q is not ru or en", t.Language)
	}
	if err := CheckMemoryIDs(t); err != nil {
		return nil, err
	}
	if t.Number < 1 {
		t.Number = 1
	}
	s := &contracts.ChatState{SessionID: t.SessionID, Turn: t.Number, UserMessage: msg, UserRole: t.Role, Language: t.Language,
		UI: []contracts.UIMessage{}, Evidence: []contracts.EvidenceItem{}, QueryTraces: []contracts.QueryTrace{}, Articles: []contracts.Article{}}
	// The model sees the user's words with the review marker defused; the
	// metadata keeps them as sent.
	toModel, escaped := nodes.EscapeReviewMarker(msg)
	if escaped {
		s.Diagnostics.Notes = append(s.Diagnostics.Notes, contracts.NodeNote{Node: "input",
			Message: "the user message holds the brackets of the Guardian's review marker (⟦ ⟧); the model sees them as [ ]"})
	}
	s.Messages = make([]*schema.Message, 0, len(t.History)+1)
	for _, m := range t.History {
		s.Messages = append(s.Messages, contracts.Unmarked(m)) // a client's history is its own text, never the system's
	}
	s.Messages = append(s.Messages, schema.UserMessage(toModel))
	return s, nil
}
