package nodes

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/models"
)

// DefaultModelTimeout bounds one model call when a node is given none.
const DefaultModelTimeout = 60 * time.Second

// callModel makes one model call under a timeout and records it in the
// diagnostics: node, tools offered, tool choice, duration, tokens, error.
// stream asks for a streamed reply (so token events flow) and returns it
// concatenated. A failed call's error is a *models.CallError, classed.
func callModel(ctx context.Context, s *contracts.ChatState, node string, m model.BaseChatModel, timeout time.Duration,
	in []*schema.Message, stream bool, opts ...model.Option) (*schema.Message, error) {
	if timeout <= 0 {
		timeout = DefaultModelTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	o := model.GetCommonOptions(nil, opts...)
	rec := contracts.ModelCall{Node: node, ToolChoice: models.ChoiceName(o.ToolChoice)}
	for _, t := range o.Tools {
		rec.Tools = append(rec.Tools, t.Name)
	}
	start := time.Now()
	msg, err := generate(ctx, m, in, stream, opts)
	rec.DurationMS = float64(time.Since(start).Microseconds()) / 1000
	if err != nil {
		rec.Error = err.Error()
		err = models.Failed(node, m, err)
	} else if msg.ResponseMeta != nil && msg.ResponseMeta.Usage != nil {
		rec.PromptTokens = msg.ResponseMeta.Usage.PromptTokens
		rec.CompletionTokens = msg.ResponseMeta.Usage.CompletionTokens
		rec.TokensEstimated, _ = msg.Extra[models.UsageEstimated].(bool)
	}
	s.Diagnostics.ModelCalls = append(s.Diagnostics.ModelCalls, rec)
	return msg, err
}

func generate(ctx context.Context, m model.BaseChatModel, in []*schema.Message, stream bool, opts []model.Option) (*schema.Message, error) {
	if !stream {
		msg, err := m.Generate(ctx, in, opts...)
		if err == nil && msg == nil {
			err = models.ErrNoReply
		}
		return msg, err
	}
	sr, err := m.Stream(ctx, in, opts...)
	if err != nil {
		return nil, err
	}
	defer sr.Close()
	var chunks []*schema.Message
	for {
		c, err := sr.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		chunks = append(chunks, c)
	}
	if len(chunks) == 0 {
		return nil, models.ErrNoReply
	}
	return schema.ConcatMessages(chunks)
}
