package prebuilt

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/cloudwego/eino/schema"

	"github.com/sgrgraph/sgrgraph/graph"
)

// Messages is a state that holds a conversation: every piece of this
// package works on any state with these two methods. Embed MessagesState
// in a struct to have them; S is then a pointer to the struct.
type Messages interface {
	GetMessages() []*schema.Message
	SetMessages([]*schema.Message)
}

// MessagesState is LangGraph's MessagesState as a struct to embed in a
// state of your own:
//
//	type Chat struct {
//		prebuilt.MessagesState
//		User string
//	}
//
// The list is tagged `reduce:"append"`: parallel branches that each add
// messages meet with the messages of both, in branch order, and a
// thread's new input adds its messages to the thread's.
type MessagesState struct {
	Messages []*schema.Message `json:"messages" reduce:"append"`
}

// GetMessages is the conversation.
func (m *MessagesState) GetMessages() []*schema.Message { return m.Messages }

// SetMessages replaces the conversation.
func (m *MessagesState) SetMessages(ms []*schema.Message) { m.Messages = ms }

var _ Messages = (*MessagesState)(nil)

// appended is ms with more added, in a new array: the state's list may
// share its array with a copy the run keeps (a branch's base, a
// snapshot), which an append in place could write over.
func appended(ms []*schema.Message, more ...*schema.Message) []*schema.Message {
	out := make([]*schema.Message, 0, len(ms)+len(more))
	return append(append(out, ms...), more...)
}

// CallsTools says whether the conversation's last message is an assistant
// message that calls tools: ToolsCondition's test, for a router of your
// own (one that sends each call to a node of its own, say).
func CallsTools(ms []*schema.Message) bool { return lastToolCalls(ms) >= 0 }

// lastToolCalls is the index of the last message when it is an assistant
// message that calls tools, else -1.
func lastToolCalls(ms []*schema.Message) int {
	if n := len(ms); n > 0 && ms[n-1] != nil && ms[n-1].Role == schema.Assistant && len(ms[n-1].ToolCalls) > 0 {
		return n - 1
	}
	return -1
}

// pendingCalls is the index of the assistant message whose tool calls a
// tool step answers: the last assistant message, when only tool messages
// follow it and some of its calls have no answer yet. It also returns
// the IDs already answered.
func pendingCalls(ms []*schema.Message) (int, map[string]bool) {
	answered := map[string]bool{}
	for i := len(ms) - 1; i >= 0; i-- {
		m := ms[i]
		if m == nil {
			continue
		}
		switch m.Role {
		case schema.Tool:
			answered[m.ToolCallID] = true
			continue
		case schema.Assistant:
			if slices.ContainsFunc(m.ToolCalls, func(c schema.ToolCall) bool { return !answered[c.ID] }) {
				return i, answered
			}
		}
		return -1, nil
	}
	return -1, nil
}

// viewOf is a copy of the state for a tool that reads it: by its Clone
// method when it has one, else through JSON, which keeps what the state
// shows (its exported fields) and drops the rest.
func viewOf[S any](s S) (S, error) {
	if c, ok := any(s).(graph.Cloner[S]); ok {
		return c.Clone(), nil
	}
	var out S
	data, err := json.Marshal(s)
	if err != nil {
		return out, fmt.Errorf("copy the state for a tool: %w", err)
	}
	if err := json.Unmarshal(data, &out); err != nil {
		return out, fmt.Errorf("copy the state for a tool: %w", err)
	}
	return out, nil
}
