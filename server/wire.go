package server

import (
	"encoding/json"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// The OpenAI chat completions wire format: only the fields sgrgraph reads
// or writes. What each request field does (honoured, checked, refused or
// ignored) is in openai_fields.go and docs/serve.md; a field not named
// here is ignored.

type chatRequest struct {
	Model         *string          `json:"model"`
	Messages      []requestMessage `json:"messages"`
	Stream        bool             `json:"stream"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	User string `json:"user"`
	// Sampling is checked as OpenAI checks it, then left to the turn's own
	// model settings; one choice is all a turn gives.
	N           *int     `json:"n"`
	Temperature *float64 `json:"temperature"`
	TopP        *float64 `json:"top_p"`
	// The answer's content is cut and shaped by these (answerShape).
	MaxTokens           *int            `json:"max_tokens"`
	MaxCompletionTokens *int            `json:"max_completion_tokens"`
	Stop                json.RawMessage `json:"stop"`            // a string or an array of strings
	ResponseFormat      json.RawMessage `json:"response_format"` // read by responseFormatOf
	// A client's tools are refused (refuseClientTools): kept raw, as only
	// their presence matters.
	Tools        json.RawMessage `json:"tools"`
	ToolChoice   json.RawMessage `json:"tool_choice"`
	Functions    json.RawMessage `json:"functions"`
	FunctionCall json.RawMessage `json:"function_call"`
	// MultitaskStrategy says what to do when the X-Session-Id session is
	// busy (multitask.go); also the X-Multitask-Strategy header.
	MultitaskStrategy string `json:"multitask_strategy"`
}

type requestMessage struct {
	Role *string `json:"role"`
	// Content is a string, an array of content parts, or null.
	Content json.RawMessage `json:"content"`
	// ToolCalls are an assistant message's calls, and ToolCallID the call
	// a tool message answers: history only, never run here.
	ToolCalls  []requestToolCall `json:"tool_calls"`
	ToolCallID *string           `json:"tool_call_id"`
}

// requestToolCall is one tool call of an assistant message in the history.
type requestToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// contentPart is one part of an array content; only text parts are read.
type contentPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type chatCompletion struct {
	ID      string             `json:"id"`
	Object  string             `json:"object"` // chat.completion
	Created int64              `json:"created"`
	Model   string             `json:"model"`
	Choices []completionChoice `json:"choices"`
	Usage   usage              `json:"usage"`
	// SGRGraph is the turn's whole structured result, masked; OpenAI
	// clients ignore a field they do not know.
	SGRGraph *contracts.StructuredResult `json:"sgrgraph,omitempty"`
}

type completionChoice struct {
	Index        int              `json:"index"`
	Message      assistantMessage `json:"message"`
	FinishReason string           `json:"finish_reason"`
	Logprobs     *struct{}        `json:"logprobs"` // always null
}

type assistantMessage struct {
	Role    string  `json:"role"`
	Content string  `json:"content"`
	Refusal *string `json:"refusal"` // always null: a refusal is an answer like any other
}

type chatChunk struct {
	ID       string                      `json:"id"`
	Object   string                      `json:"object"` // chat.completion.chunk
	Created  int64                       `json:"created"`
	Model    string                      `json:"model"`
	Choices  []chunkChoice               `json:"choices"`
	Usage    *usage                      `json:"usage,omitempty"`
	SGRGraph *contracts.StructuredResult `json:"sgrgraph,omitempty"`
}

type chunkChoice struct {
	Index        int       `json:"index"`
	Delta        delta     `json:"delta"`
	FinishReason *string   `json:"finish_reason"` // null until the last chunk
	Logprobs     *struct{} `json:"logprobs"`
}

type delta struct {
	Role    string `json:"role,omitempty"`
	Content string `json:"content,omitempty"`
}

type usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

func usageOf(r contracts.StructuredResult) usage {
	t := r.Diagnostics.Tokens
	return usage{PromptTokens: t.Prompt, CompletionTokens: t.Completion, TotalTokens: t.Prompt + t.Completion}
}

type modelList struct {
	Object string      `json:"object"` // list
	Data   []modelInfo `json:"data"`
}

type modelInfo struct {
	ID      string `json:"id"`
	Object  string `json:"object"` // model
	Created int64  `json:"created"`
	OwnedBy string `json:"owned_by"`
}

// turnRequest is the body of POST /v1/turns, sgrgraph's own endpoint.
type turnRequest struct {
	Message   *string `json:"message"`
	SessionID string  `json:"session_id"`
	Language  string  `json:"language"`
	Role      string  `json:"role"`
	// Stream sends the turn's events as they happen (SSE), then the result.
	Stream bool `json:"stream"`
	// IncludeQueryTraces asks for the searches the agent ran and what each
	// found in the result, as output.include_query_traces does for every
	// turn (the web chat's confidence and queries badges read them).
	IncludeQueryTraces bool `json:"include_query_traces"`
	// MultitaskStrategy says what to do when the session is busy (multitask.go).
	MultitaskStrategy string `json:"multitask_strategy"`
	// Webhook, on /v1/runs, is the URL the run's end is posted to (webhooks.go).
	Webhook string `json:"webhook"`
	// Assistant names the assistant that answers: "name" or "name@version"
	// (assistants.go); empty: the server's own configuration.
	Assistant string `json:"assistant"`
	// User names whose long-term memory the turn reads and writes
	// (memory.enabled), within the key's space; empty: the key's own.
	User string `json:"user"`
}
