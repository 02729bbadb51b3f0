// Package sgrtest helps people who compose graphs test them: a scripted
// chat model that replies from a list and records what it was asked,
// helpers that run one node or a graph up to a node, and golden transcripts
// of a turn. sgrgraph's own tests use it the same way.
package sgrtest

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"

	"github.com/sgrgraph/sgrgraph/models"
)

// Reply is one scripted answer: a message, an error, or stream chunks.
type Reply struct {
	Message *schema.Message
	Chunks  []*schema.Message
	Err     error
}

// Text replies with an assistant message.
func Text(content string) Reply {
	return Reply{Message: schema.AssistantMessage(content, nil)}
}

// ToolCall replies with one call of tool name with JSON arguments.
func ToolCall(name, argsJSON string) Reply {
	return ToolCalls(schema.ToolCall{Function: schema.FunctionCall{Name: name, Arguments: argsJSON}})
}

// ToolCalls replies with several tool calls; missing ids are filled in.
func ToolCalls(calls ...schema.ToolCall) Reply {
	return Reply{Message: schema.AssistantMessage("", calls)}
}

// Fail replies with an error.
func Fail(err error) Reply { return Reply{Err: err} }

// Chunks replies with a text streamed in the given pieces.
func Chunks(pieces ...string) Reply {
	r := Reply{}
	for _, p := range pieces {
		r.Chunks = append(r.Chunks, schema.AssistantMessage(p, nil))
	}
	return r
}

// Request is one call the scripted model received.
type Request struct {
	Messages   []*schema.Message
	Tools      []string // names of the tools offered
	ToolChoice string   // "" (not set), "none", "auto" or "required"
	// Allowed are the tool names a forced or allowed choice named.
	Allowed []string
}

// Offers reports whether the request offered the named tool.
func (r Request) Offers(name string) bool { return slices.Contains(r.Tools, name) }

// ScriptedModel is a test double of a chat model: it answers each call with
// the next scripted reply and records every request. It is safe for
// concurrent use; replies are handed out in call order.
type ScriptedModel struct {
	*models.Model
	mu       sync.Mutex
	replies  []Reply
	next     int
	repeat   bool
	requests []Request
}

// NewScriptedModel scripts replies in order; a call past the end fails
// with an error that says how many replies were scripted.
func NewScriptedModel(replies ...Reply) *ScriptedModel {
	s := &ScriptedModel{replies: replies}
	s.Model = models.New("Scripted", s.reply)
	return s
}

// Repeat makes the script start over when it runs out, for benchmarks.
func (s *ScriptedModel) Repeat() *ScriptedModel {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.repeat = true
	return s
}

// Requests returns a copy of the requests received so far.
func (s *ScriptedModel) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

func (s *ScriptedModel) reply(_ context.Context, in []*schema.Message, o *model.Options) ([]*schema.Message, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.repeat || len(s.requests) < 64 {
		s.requests = append(s.requests, RequestOf(in, o))
	}
	if s.next >= len(s.replies) {
		if !s.repeat || len(s.replies) == 0 {
			return nil, fmt.Errorf("scripted model: call %d but only %d replies scripted", s.next+1, len(s.replies))
		}
		s.next = 0
	}
	r := s.replies[s.next]
	s.next++
	switch {
	case r.Err != nil:
		return nil, r.Err
	case len(r.Chunks) > 0:
		return r.Chunks, nil
	case r.Message != nil:
		msg := *r.Message
		msg.ToolCalls = append([]schema.ToolCall(nil), msg.ToolCalls...)
		for i := range msg.ToolCalls {
			if msg.ToolCalls[i].ID == "" {
				msg.ToolCalls[i].ID = fmt.Sprintf("call_%d_%d", s.next, i)
			}
			if msg.ToolCalls[i].Type == "" {
				msg.ToolCalls[i].Type = "function"
			}
		}
		return []*schema.Message{&msg}, nil
	}
	return nil, fmt.Errorf("scripted model: reply %d is empty", s.next)
}

// RequestOf describes a call from its messages and merged options.
func RequestOf(in []*schema.Message, o *model.Options) Request {
	r := Request{Messages: append([]*schema.Message(nil), in...), Allowed: o.AllowedToolNames}
	for _, t := range o.Tools {
		r.Tools = append(r.Tools, t.Name)
	}
	r.ToolChoice = models.ChoiceName(o.ToolChoice)
	return r
}
