// Package models turns a reply function into a complete eino chat model:
// tool binding, Generate and Stream, and the callbacks that let tracing and
// token streaming see every call. The offline engine and the scripted test
// model are built on it; network providers bring their own.
package models

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/cloudwego/eino/callbacks"
	"github.com/cloudwego/eino/components"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
)

// ReplyFunc answers one call. It returns the reply as stream chunks (one
// chunk is fine): Generate concatenates them, Stream sends them in order.
// opts holds the call's tools and tool choice, already merged with the
// tools bound by WithTools.
type ReplyFunc func(ctx context.Context, in []*schema.Message, opts *model.Options) ([]*schema.Message, error)

// Model is a chat model made from a ReplyFunc. It is safe for concurrent
// use when its ReplyFunc is.
type Model struct {
	typ   string
	reply ReplyFunc
	tools []*schema.ToolInfo
}

var _ model.ToolCallingChatModel = (*Model)(nil)

// New makes a model; typ names it in callbacks (RunInfo.Type).
func New(typ string, reply ReplyFunc) *Model {
	return &Model{typ: typ, reply: reply}
}

// WithTools returns a copy of the model with tools bound; the receiver is unchanged.
func (m *Model) WithTools(tools []*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	c := *m
	c.tools = tools
	return &c, nil
}

// GetType names the model in callbacks.
func (m *Model) GetType() string { return m.typ }

// IsCallbacksEnabled tells eino that the model reports its own callbacks.
func (m *Model) IsCallbacksEnabled() bool { return true }

// Generate answers with one message.
func (m *Model) Generate(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	ctx, o := m.start(ctx, in, opts)
	chunks, err := m.call(ctx, in, o)
	if err != nil {
		callbacks.OnError(ctx, err)
		return nil, err
	}
	msg, err := schema.ConcatMessages(chunks)
	if err != nil {
		err = fmt.Errorf("%s: reply: %w", m.typ, err)
		callbacks.OnError(ctx, err)
		return nil, err
	}
	callbacks.OnEnd(ctx, &model.CallbackOutput{Message: msg, TokenUsage: usage(msg)})
	return msg, nil
}

// Stream answers chunk by chunk.
func (m *Model) Stream(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	ctx, o := m.start(ctx, in, opts)
	chunks, err := m.call(ctx, in, o)
	if err != nil {
		callbacks.OnError(ctx, err)
		return nil, err
	}
	out := schema.StreamReaderWithConvert(schema.StreamReaderFromArray(chunks), func(c *schema.Message) (*model.CallbackOutput, error) {
		return &model.CallbackOutput{Message: c, TokenUsage: usage(c)}, nil
	})
	_, out = callbacks.OnEndWithStreamOutput(ctx, out)
	return schema.StreamReaderWithConvert(out, func(c *model.CallbackOutput) (*schema.Message, error) {
		return c.Message, nil
	}), nil
}

// start reports the call. ReuseHandlers, not EnsureRunInfo: the latter keeps
// a caller's RunInfo when there is one, and handlers registered for chat
// models would then not hear this call.
func (m *Model) start(ctx context.Context, in []*schema.Message, opts []model.Option) (context.Context, *model.Options) {
	o := model.GetCommonOptions(&model.Options{Tools: m.tools}, opts...)
	ctx = callbacks.ReuseHandlers(ctx, &callbacks.RunInfo{Name: m.typ, Type: m.typ, Component: components.ComponentOfChatModel})
	ctx = callbacks.OnStart(ctx, &model.CallbackInput{Messages: in, Tools: o.Tools, ToolChoice: o.ToolChoice})
	return ctx, o
}

func (m *Model) call(ctx context.Context, in []*schema.Message, o *model.Options) ([]*schema.Message, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	chunks, err := m.reply(ctx, in, o)
	if err != nil {
		return nil, err
	}
	if len(chunks) == 0 {
		return nil, errors.New(m.typ + ": empty reply")
	}
	return chunks, nil
}

func usage(m *schema.Message) *model.TokenUsage {
	if m == nil || m.ResponseMeta == nil || m.ResponseMeta.Usage == nil {
		return nil
	}
	u := m.ResponseMeta.Usage
	return &model.TokenUsage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, TotalTokens: u.TotalTokens}
}

// UsageEstimated is the key of a reply's Extra that marks its token counts
// as estimated by sgrgraph rather than reported by the model server.
const UsageEstimated = "usage_estimated"

// ChoiceName names a tool choice as the OpenAI protocol does: none, auto,
// required, or "" when the call leaves it unset.
func ChoiceName(c *schema.ToolChoice) string {
	if c == nil {
		return ""
	}
	switch *c {
	case schema.ToolChoiceForbidden:
		return "none"
	case schema.ToolChoiceAllowed:
		return "auto"
	case schema.ToolChoiceForced:
		return "required"
	}
	return strings.ToLower(string(*c))
}
