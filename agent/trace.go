package agent

import (
	"context"
	"encoding/json"
	"io"
	"slices"
	"sync"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"

	"github.com/sgrgraph/sgrgraph/models"
)

// TraceLine is one model call as --trace writes it.
type TraceLine struct {
	Node       string         `json:"node"`
	Tools      []string       `json:"tools"`
	ToolChoice string         `json:"tool_choice"`
	Allowed    []string       `json:"allowed_tools,omitempty"`
	Messages   []TraceMessage `json:"messages"`
}

// TraceMessage is one message sent to the model.
type TraceMessage struct {
	Role       string            `json:"role"`
	Content    string            `json:"content"`
	ToolCalls  []schema.ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string            `json:"tool_call_id,omitempty"`
}

// Traced wraps a model so that every call is written to w as one JSON
// line before it is made: the node, the tools offered, the tool choice and
// the messages, with personal data masked in their text and tool
// arguments (a trace file is shared to debug, like any output). The model
// itself gets the messages unchanged. Writes are serialised; a failed
// write does not fail the call.
func Traced(m model.BaseChatModel, w io.Writer) model.BaseChatModel {
	return &traced{inner: m, w: w, mu: &sync.Mutex{}}
}

type traced struct {
	inner model.BaseChatModel
	w     io.Writer
	mu    *sync.Mutex
}

func (t *traced) Generate(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	t.write(ctx, in, opts)
	return t.inner.Generate(ctx, in, opts...)
}

func (t *traced) Stream(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	t.write(ctx, in, opts)
	return t.inner.Stream(ctx, in, opts...)
}

func (t *traced) write(ctx context.Context, in []*schema.Message, opts []model.Option) {
	o := model.GetCommonOptions(nil, opts...)
	line := TraceLine{Node: nodeOf(ctx), Tools: []string{}, ToolChoice: models.ChoiceName(o.ToolChoice), Allowed: o.AllowedToolNames}
	for _, ti := range o.Tools {
		line.Tools = append(line.Tools, ti.Name)
	}
	for _, m := range in {
		calls := slices.Clone(m.ToolCalls)
		for i := range calls {
			calls[i].Function.Arguments = MaskText(calls[i].Function.Arguments)
		}
		line.Messages = append(line.Messages, TraceMessage{Role: string(m.Role), Content: MaskText(m.Content),
			ToolCalls: calls, ToolCallID: m.ToolCallID})
	}
	data, err := json.Marshal(line)
	if err != nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	_, _ = t.w.Write(append(data, '\n'))
}
