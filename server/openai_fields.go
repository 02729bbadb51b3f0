package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"

	"github.com/sgrgraph/sgrgraph/agent"
)

// What the server does with each field of an OpenAI chat request. Any
// field a client sends is one of:
//
//   - honoured: model, messages, stream, stream_options.include_usage,
//     max_tokens, max_completion_tokens, stop, response_format;
//   - checked, then left to the turn: n (must be 1), temperature, top_p;
//   - refused with a 400 naming it: tools, tool_choice, functions,
//     function_call, as a support turn calls only its own tools;
//   - ignored: every other field (user, seed, logprobs, ...).
//
// docs/serve.md has the same table for clients; keep the two alike.

// maxStops is OpenAI's limit on stop sequences.
const maxStops = 4

// openaiTurn checks a chat request and reads what it asks: the turn, and
// how its answer is to be shaped. The served model is checked last, so
// that a request malformed in other ways learns of its fields first, as
// OpenAI's does.
func (s *Server) openaiTurn(req chatRequest) (agent.Turn, answerShape, *apiError) {
	t, e := chatTurn(req, s.opts.MaxMessages)
	if e != nil {
		return t, answerShape{}, e
	}
	shape, e := shapeOf(req)
	if e == nil {
		e = s.checkModel(*req.Model)
	}
	return t, shape, e
}

// served is the one model this server answers as, as /v1/models lists it.
func (s *Server) served() modelInfo {
	return modelInfo{ID: s.opts.Model, Object: "model", OwnedBy: "sgrgraph"}
}

// checkModel refuses a model the server does not serve. Answering a
// request for gpt-4o with a support turn would let a misconfigured client
// believe it spoke to the model it named.
func (s *Server) checkModel(name string) *apiError {
	if name == s.opts.Model {
		return nil
	}
	if _, err := agent.ParseRef(name); err == nil && s.opts.Assistants != nil {
		return nil // an assistant's name: the turn reads it (withAssistant)
	}
	return modelNotFound("model", "model: %q is not served here; this server answers as %q (GET /v1/models)", name, s.opts.Model)
}

func modelNotFound(param, format string, args ...any) *apiError {
	return &apiError{Status: http.StatusNotFound, Type: typeInvalidRequest, Param: param, Code: "model_not_found", Message: fmt.Sprintf(format, args...)}
}

// model answers GET /v1/models/{id}: the served model, or 404.
func (s *Server) model(w http.ResponseWriter, r *http.Request, _ string) {
	if id := r.PathValue("id"); id != s.opts.Model {
		if s.assistantModel(r.Context(), id) {
			writeJSON(w, http.StatusOK, modelInfo{ID: id, Object: "model", OwnedBy: "sgrgraph"})
			return
		}
		writeError(w, modelNotFound("model", "model %q not found; this server answers as %q", id, s.opts.Model))
		return
	}
	writeJSON(w, http.StatusOK, s.served())
}

// shapeOf reads the fields that shape a request's answer, and refuses the
// ones that ask for what a turn does not do.
func shapeOf(req chatRequest) (answerShape, *apiError) {
	var a answerShape
	if e := refuseClientTools(req); e != nil {
		return a, e
	}
	var e *apiError
	if a.maxTokens, e = maxTokensOf(req); e != nil {
		return a, e
	}
	if a.stops, e = stopsOf(req.Stop); e != nil {
		return a, e
	}
	a.json, a.fields, e = responseFormatOf(req.ResponseFormat)
	return a, e
}

// refuseClientTools refuses a request that offers the model its own tools:
// a turn never calls them, and a client that offered them would wait for
// a tool call that cannot come. A field that asks for no tool (null, an
// empty list, "none") is accepted.
func refuseClientTools(req chatRequest) *apiError {
	fields := []struct {
		name string
		raw  json.RawMessage
	}{{"tools", req.Tools}, {"tool_choice", req.ToolChoice}, {"functions", req.Functions}, {"function_call", req.FunctionCall}}
	for _, f := range fields {
		if asksForTools(f.raw) {
			return invalid(f.name, "unsupported_parameter", "%s: not supported; this server answers with a support turn, which calls only its own tools, never a client's; leave %s out", f.name, f.name)
		}
	}
	return nil
}

func asksForTools(raw json.RawMessage) bool {
	if len(raw) == 0 {
		return false
	}
	var v any
	_ = json.Unmarshal(raw, &v) // valid JSON: the whole body parsed
	switch v := v.(type) {
	case nil:
		return false
	case []any:
		return len(v) > 0
	case string:
		return v != "none"
	}
	return true
}

// maxTokensOf is the request's token limit, 0 for none. Both max_tokens
// (the older name) and max_completion_tokens may be given; the smaller
// bounds the answer, as either alone would.
func maxTokensOf(req chatRequest) (int, *apiError) {
	limit := 0
	for _, f := range []struct {
		name string
		n    *int
	}{{"max_tokens", req.MaxTokens}, {"max_completion_tokens", req.MaxCompletionTokens}} {
		switch {
		case f.n == nil:
		case *f.n < 1:
			return 0, invalid(f.name, "integer_below_min_value", "%s: %d is below the minimum of 1", f.name, *f.n)
		case limit == 0 || *f.n < limit:
			limit = *f.n
		}
	}
	return limit, nil
}

// stopsOf reads stop: null, a string, or an array of up to maxStops
// strings. An empty string would stop the answer before it starts, so it
// is refused, as OpenAI refuses it.
func stopsOf(raw json.RawMessage) ([]string, *apiError) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var stops []string
	var one string
	if json.Unmarshal(raw, &one) == nil {
		stops = []string{one}
	} else if json.Unmarshal(raw, &stops) != nil {
		return nil, invalid("stop", "invalid_type", "stop: must be a string or an array of up to %d strings", maxStops)
	}
	if len(stops) > maxStops {
		return nil, invalid("stop", "array_above_max_length", "stop: %d sequences, over the limit of %d", len(stops), maxStops)
	}
	if i := slices.Index(stops, ""); i >= 0 {
		field := "stop"
		if raw[0] == '[' {
			field = fmt.Sprintf("stop[%d]", i)
		}
		return nil, invalid(field, "invalid_value", "%s: must not be an empty string", field)
	}
	return stops, nil
}

// responseFormat is OpenAI's response_format.
type responseFormat struct {
	Type       *string `json:"type"`
	JSONSchema *struct {
		Name   string          `json:"name"`
		Schema json.RawMessage `json:"schema"`
	} `json:"json_schema"`
}

// schemaName is OpenAI's rule for a json_schema's name.
var schemaName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// responseFormatOf reads response_format: whether the answer is JSON, and
// which of its fields (answerFields) it holds.
func responseFormatOf(raw json.RawMessage) (isJSON bool, fields []string, e *apiError) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return false, nil, nil
	}
	var f responseFormat
	if raw[0] != '{' || json.Unmarshal(raw, &f) != nil {
		return false, nil, invalid("response_format", "invalid_type", `response_format: must be an object such as {"type": "json_object"}`)
	}
	switch {
	case f.Type == nil:
		return false, nil, invalid("response_format.type", "missing_required_parameter", "response_format.type: required")
	case *f.Type == "text":
		return false, nil, nil
	case *f.Type == "json_object":
		return true, fieldNames(), nil
	case *f.Type != "json_schema":
		return false, nil, invalid("response_format.type", "invalid_value", "response_format.type: %q is not one of text, json_object, json_schema", *f.Type)
	case f.JSONSchema == nil:
		return false, nil, invalid("response_format.json_schema", "missing_required_parameter", "response_format.json_schema: required when response_format.type is json_schema")
	case !schemaName.MatchString(f.JSONSchema.Name):
		return false, nil, invalid("response_format.json_schema.name", "invalid_value", "response_format.json_schema.name: %q must be 1 to 64 letters, digits, _ or -", f.JSONSchema.Name)
	}
	fields, e = schemaFields(f.JSONSchema.Schema)
	return e == nil, fields, e
}
