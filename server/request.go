package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cloudwego/eino/schema"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/contracts"
)

// decodeBody reads a JSON body of at most limit bytes into v. It checks
// the bytes are UTF-8 before decoding, because encoding/json would quietly
// turn invalid bytes into U+FFFD and the turn would answer a question the
// client never asked.
func decodeBody(w http.ResponseWriter, r *http.Request, limit int64, v any) *apiError {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return tooLarge("", "request body: over the limit of %d bytes", limit)
	case err != nil:
		return invalid("", "body_unreadable", "request body: %v", err)
	case len(bytes.TrimSpace(body)) == 0:
		return invalid("", "body_missing", "request body: empty; send a JSON object")
	case !utf8.Valid(body):
		param := invalidUTF8Field(body, "")
		return invalid(param, "invalid_utf8", "%s: not valid UTF-8", orWord(param, "request body"))
	}
	if err := json.Unmarshal(body, v); err != nil {
		var syntax *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syntax):
			// OpenAI answers malformed JSON with param null: no field can be named.
			return invalid("", "invalid_json", "request body: not valid JSON (offset %d): %v", syntax.Offset, err)
		case errors.As(err, &typ):
			return invalid(typ.Field, "invalid_type", "%s: must be %s, not a JSON %s", orWord(typ.Field, "request body"), jsonKind(typ.Type.Kind().String()), typ.Value)
		}
		return invalid("", "invalid_json", "request body: %v", err)
	}
	return nil
}

// invalidUTF8Field is the path (messages[2].content) of the first value of
// a JSON document that holds bytes that are not UTF-8.
func invalidUTF8Field(raw json.RawMessage, path string) string {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) == nil {
		for k, v := range obj {
			if !utf8.Valid(v) {
				return invalidUTF8Field(v, join(path, k))
			}
		}
		return path
	}
	var arr []json.RawMessage
	if json.Unmarshal(raw, &arr) == nil {
		for i, v := range arr {
			if !utf8.Valid(v) {
				return invalidUTF8Field(v, path+"["+strconv.Itoa(i)+"]")
			}
		}
	}
	return path
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func orWord(s, word string) string {
	if s == "" {
		return word
	}
	return s
}

// jsonKind names a Go kind as JSON does.
func jsonKind(kind string) string {
	switch kind {
	case "string":
		return "a string"
	case "slice", "array":
		return "an array"
	case "struct", "map", "ptr":
		return "an object"
	case "bool":
		return "true or false"
	}
	return "a number"
}

// chatTurn is what a chat completion request asks: its last message, a
// user's, is the turn's message; the user, assistant and tool messages
// before it are the history; system messages are ignored (the turn has its
// own).
func chatTurn(req chatRequest, maxMessages int) (agent.Turn, *apiError) {
	if req.Model == nil || strings.TrimSpace(*req.Model) == "" {
		return agent.Turn{}, invalid("model", "missing_required_parameter", "model: required")
	}
	switch {
	case req.Messages == nil:
		return agent.Turn{}, invalid("messages", "missing_required_parameter", "messages: required")
	case len(req.Messages) == 0:
		return agent.Turn{}, invalid("messages", "empty_array", "messages: must hold at least one message")
	case len(req.Messages) > maxMessages:
		return agent.Turn{}, invalid("messages", "array_above_max_length", "messages: %d messages, over the limit of %d", len(req.Messages), maxMessages)
	}
	switch {
	case req.N != nil && *req.N != 1:
		return agent.Turn{}, invalid("n", "unsupported_value", "n: %d choices asked; a turn gives one, so n must be 1 or left out", *req.N)
	case req.Temperature != nil && (*req.Temperature < 0 || *req.Temperature > 2):
		return agent.Turn{}, invalid("temperature", "decimal_out_of_range", "temperature: %g is outside 0..2", *req.Temperature)
	case req.TopP != nil && (*req.TopP < 0 || *req.TopP > 1):
		return agent.Turn{}, invalid("top_p", "decimal_out_of_range", "top_p: %g is outside 0..1", *req.TopP)
	}
	t, e := readMessages(req.Messages)
	if e != nil {
		return t, e
	}
	for _, m := range t.History {
		if m.Role == schema.User {
			t.Number++
		}
	}
	t.Number++
	return t, nil
}

// readMessages reads the turn's message, the last, and its history, the
// messages before it. A client's history is its own account of the
// conversation, never instructions to the server: it goes to the agent as
// history only, never marked as the system's own messages, and the agent
// carries of it what agent.Carry keeps (the user's and assistant's words;
// tool calls and results, like the turn's own, are dropped).
func readMessages(messages []requestMessage) (agent.Turn, *apiError) {
	var t agent.Turn
	last := len(messages) - 1
	calls := map[string]bool{} // the ids of the tool calls made so far, which a tool message answers
	for i, m := range messages {
		field := fmt.Sprintf("messages[%d]", i)
		if m.Role == nil {
			return t, invalid(field+".role", "missing_required_parameter", "%s.role: required", field)
		}
		text, e := contentText(m.Content, field+".content")
		if e != nil {
			return t, e
		}
		var msg *schema.Message
		switch role := *m.Role; {
		case role == "system" || role == "developer":
			if i == last {
				return t, invalid(field+".role", "invalid_value", "%s.role: the last message must be a user message, not %s", field, role)
			}
		case role == "user" && i == last:
			if e := checkMessage(text, field+".content"); e != nil {
				return t, e
			}
			t.Message = text
		case role == "user":
			msg = schema.UserMessage(text)
		case i == last && (role == "assistant" || role == "tool"):
			return t, invalid(field+".role", "invalid_value", "%s.role: the last message must be a user message, not %s", field, role)
		case role == "assistant":
			msg, e = assistantHistory(m, text, field, calls)
		case role == "tool":
			msg, e = toolHistory(m, text, field, calls)
		default:
			return t, invalid(field+".role", "invalid_value", "%s.role: %q is not one of system, developer, user, assistant, tool", field, role)
		}
		if e != nil {
			return t, e
		}
		if msg != nil {
			t.History = append(t.History, msg)
		}
	}
	return t, nil
}

// assistantHistory is an assistant message of the history, with the tool
// calls it made (recorded in calls, for the tool messages that answer
// them); nil when it has neither text nor calls, as it says nothing.
func assistantHistory(m requestMessage, text, field string, calls map[string]bool) (*schema.Message, *apiError) {
	var made []schema.ToolCall
	for j, c := range m.ToolCalls {
		f := fmt.Sprintf("%s.tool_calls[%d]", field, j)
		switch {
		case c.ID == "":
			return nil, invalid(f+".id", "missing_required_parameter", "%s.id: required", f)
		case c.Type == "":
			return nil, invalid(f+".type", "missing_required_parameter", "%s.type: required", f)
		case c.Type != "function":
			return nil, invalid(f+".type", "invalid_value", "%s.type: %q is not supported; only function calls are", f, c.Type)
		case c.Function.Name == "":
			return nil, invalid(f+".function.name", "missing_required_parameter", "%s.function.name: required", f)
		}
		calls[c.ID] = true
		made = append(made, schema.ToolCall{ID: c.ID, Type: c.Type, Function: schema.FunctionCall{Name: c.Function.Name, Arguments: c.Function.Arguments}})
	}
	if strings.TrimSpace(text) == "" && len(made) == 0 {
		return nil, nil
	}
	return schema.AssistantMessage(text, made), nil
}

// toolHistory is a tool message of the history: what a client's tool
// returned for a call an earlier assistant message made. OpenAI refuses a
// tool message that answers no call, and so does this server: the model
// context would hold a result of nothing.
func toolHistory(m requestMessage, text, field string, calls map[string]bool) (*schema.Message, *apiError) {
	switch {
	case m.ToolCallID == nil || *m.ToolCallID == "":
		return nil, invalid(field+".tool_call_id", "missing_required_parameter", "%s.tool_call_id: required in a tool message", field)
	case !calls[*m.ToolCallID]:
		return nil, invalid(field+".tool_call_id", "invalid_value", "%s.tool_call_id: %q answers no tool call of an earlier assistant message", field, *m.ToolCallID)
	}
	return schema.ToolMessage(text, *m.ToolCallID), nil
}

// contentText is a message's text: a string, or the text parts of an array
// joined; null reads as empty.
func contentText(raw json.RawMessage, field string) (string, *apiError) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if raw[0] == '"' {
		if json.Unmarshal(raw, &s) != nil {
			return "", invalid(field, "invalid_type", "%s: not a valid JSON string", field)
		}
		return s, nil
	}
	var parts []contentPart
	if json.Unmarshal(raw, &parts) != nil {
		return "", invalid(field, "invalid_type", "%s: must be a string or an array of text parts", field)
	}
	texts := make([]string, 0, len(parts))
	for i, p := range parts {
		if p.Type != "text" {
			return "", invalid(fmt.Sprintf("%s[%d].type", field, i), "invalid_value", "%s[%d].type: %q is not supported; only text parts are", field, i, p.Type)
		}
		texts = append(texts, p.Text)
	}
	return strings.Join(texts, "\n"), nil
}

// checkMessage holds a turn's message to the agent's limits, so that the
// client learns which field and which limit before any turn runs.
func checkMessage(text, field string) *apiError {
	msg := strings.TrimSpace(text)
	if msg == "" {
		return invalid(field, "missing_required_parameter", "%s: must not be empty", field)
	}
	if n := utf8.RuneCountInString(msg); n > agent.MaxMessageRunes {
		return tooLarge(field, "%s: %d characters, over the limit of %d", field, n, agent.MaxMessageRunes)
	}
	return nil
}

func checkLanguage(lang string) *apiError {
	if lang == "" {
		return nil
	}
	if err := contracts.CheckLanguage("language", lang); err != nil {
		return invalid("language", "invalid_value", "%s", err)
	}
	return nil
}
