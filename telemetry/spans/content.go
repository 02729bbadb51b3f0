package spans

import (
	"encoding/json"

	"github.com/cloudwego/eino/schema"
)

// part and message are the shapes of gen_ai.input.messages and
// gen_ai.output.messages in the GenAI conventions: a role and its parts.
type part struct {
	Type      string `json:"type"`
	Content   string `json:"content,omitempty"`
	ID        string `json:"id,omitempty"`
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments,omitempty"`
	Response  string `json:"response,omitempty"`
}

type message struct {
	Role         string `json:"role"`
	Parts        []part `json:"parts"`
	FinishReason string `json:"finish_reason,omitempty"`
}

// messages is the JSON of ms as the conventions shape it, every text
// masked.
func (c *calls) messages(ms []*schema.Message) string {
	out := make([]message, 0, len(ms))
	for _, m := range ms {
		if m == nil {
			continue
		}
		msg := message{Role: string(m.Role)}
		switch {
		case m.Role == schema.Tool:
			msg.Parts = append(msg.Parts, part{Type: "tool_call_response", ID: m.ToolCallID, Response: c.o.Text(m.Content)})
		case m.Content != "":
			msg.Parts = append(msg.Parts, part{Type: "text", Content: c.o.Text(m.Content)})
		}
		for _, tc := range m.ToolCalls {
			msg.Parts = append(msg.Parts, part{Type: "tool_call", ID: tc.ID, Name: tc.Function.Name, Arguments: c.o.Text(tc.Function.Arguments)})
		}
		if m.ResponseMeta != nil {
			msg.FinishReason = m.ResponseMeta.FinishReason
		}
		out = append(out, msg)
	}
	b, err := json.Marshal(out)
	if err != nil {
		return ""
	}
	return string(b)
}
