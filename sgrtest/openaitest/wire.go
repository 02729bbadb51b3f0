package openaitest

import (
	"encoding/json"
	"fmt"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
)

// The OpenAI chat-completions wire format, as much of it as sgrgraph uses.

type chatRequest struct {
	Model         string          `json:"model"`
	Messages      []wireMessage   `json:"messages"`
	Tools         []wireTool      `json:"tools,omitempty"`
	ToolChoice    json.RawMessage `json:"tool_choice,omitempty"`
	Stream        bool            `json:"stream,omitempty"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options,omitempty"`
	MaxTokens   *int     `json:"max_tokens,omitempty"`
	Temperature *float32 `json:"temperature,omitempty"`
}

type wireMessage struct {
	Role       string         `json:"role"`
	Content    *string        `json:"content"`
	Name       string         `json:"name,omitempty"`
	ToolCalls  []wireToolCall `json:"tool_calls,omitempty"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
}

type wireToolCall struct {
	Index    *int   `json:"index,omitempty"`
	ID       string `json:"id,omitempty"`
	Type     string `json:"type,omitempty"`
	Function struct {
		Name      string `json:"name,omitempty"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type wireTool struct {
	Type     string `json:"type"`
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Parameters  json.RawMessage `json:"parameters,omitempty"`
	} `json:"function"`
}

type usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

type choice struct {
	Index        int          `json:"index"`
	Message      *wireMessage `json:"message,omitempty"`
	Delta        *wireMessage `json:"delta,omitempty"`
	FinishReason *string      `json:"finish_reason"`
}

type chatResponse struct {
	ID      string   `json:"id"`
	Object  string   `json:"object"`
	Created int64    `json:"created"`
	Model   string   `json:"model"`
	Choices []choice `json:"choices"`
	Usage   *usage   `json:"usage,omitempty"`
}

type apiError struct {
	Error struct {
		Message string `json:"message"`
		Type    string `json:"type"`
		Code    any    `json:"code"`
	} `json:"error"`
}

// toSchema turns wire messages into eino messages.
func toSchema(in []wireMessage) []*schema.Message {
	out := make([]*schema.Message, 0, len(in))
	for _, m := range in {
		msg := &schema.Message{Role: schema.RoleType(m.Role), Name: m.Name, ToolCallID: m.ToolCallID}
		if m.Content != nil {
			msg.Content = *m.Content
		}
		for _, tc := range m.ToolCalls {
			msg.ToolCalls = append(msg.ToolCalls, schema.ToolCall{ID: tc.ID, Type: tc.Type,
				Function: schema.FunctionCall{Name: tc.Function.Name, Arguments: tc.Function.Arguments}})
		}
		out = append(out, msg)
	}
	return out
}

// options turns the request's tools and tool_choice into eino call options.
func options(r chatRequest) ([]model.Option, string, error) {
	var infos []*schema.ToolInfo
	for _, t := range r.Tools {
		infos = append(infos, &schema.ToolInfo{Name: t.Function.Name, Desc: t.Function.Description})
	}
	opts := []model.Option{model.WithTools(infos)}
	if len(r.ToolChoice) == 0 {
		return opts, "", nil
	}
	var s string
	if json.Unmarshal(r.ToolChoice, &s) == nil {
		switch s {
		case "none":
			return append(opts, model.WithToolChoice(schema.ToolChoiceForbidden)), s, nil
		case "auto":
			return append(opts, model.WithToolChoice(schema.ToolChoiceAllowed)), s, nil
		case "required":
			return append(opts, model.WithToolChoice(schema.ToolChoiceForced)), s, nil
		}
		return nil, "", fmt.Errorf("tool_choice %q is not none, auto or required", s)
	}
	var named struct {
		Type     string `json:"type"`
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	}
	if err := json.Unmarshal(r.ToolChoice, &named); err != nil || named.Type != "function" || named.Function.Name == "" {
		return nil, "", fmt.Errorf("tool_choice %s is not understood", r.ToolChoice)
	}
	return append(opts, model.WithToolChoice(schema.ToolChoiceForced, named.Function.Name)), "function:" + named.Function.Name, nil
}

func fromSchema(m *schema.Message) *wireMessage {
	content := m.Content
	w := &wireMessage{Role: "assistant", Content: &content}
	for i, tc := range m.ToolCalls {
		c := wireToolCall{Index: &i, ID: tc.ID, Type: "function"}
		c.Function.Name, c.Function.Arguments = tc.Function.Name, tc.Function.Arguments
		w.ToolCalls = append(w.ToolCalls, c)
	}
	return w
}
