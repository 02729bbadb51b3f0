package events

import (
	"context"
	"errors"
	"io"

	"github.com/cloudwego/eino/callbacks"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	ucb "github.com/cloudwego/eino/utils/callbacks"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// TokenCallbacks is an eino callback handler that turns a chat model's
// streamed output into token events. Pass it to a run with
// compose.WithCallbacks; any model that reports its callbacks (eino-ext
// models and the offline engine do) is heard.
//
// It reads its copy of the stream before returning, so every token event
// of a call is emitted before the node that made the call ends. The tokens
// are drafts: put HoldDrafts between them and anyone who shows them.
func TokenCallbacks() callbacks.Handler {
	return ucb.NewHandlerHelper().ChatModel(&ucb.ModelCallbackHandler{
		OnEndWithStreamOutput: func(ctx context.Context, _ *callbacks.RunInfo, sr *schema.StreamReader[*model.CallbackOutput]) context.Context {
			defer sr.Close()
			for {
				chunk, err := sr.Recv()
				if errors.Is(err, io.EOF) || err != nil {
					return ctx
				}
				if chunk != nil && chunk.Message != nil && chunk.Message.Content != "" {
					Emit(ctx, contracts.Event{Kind: contracts.EventToken, Text: chunk.Message.Content})
				}
			}
		},
	}).Handler()
}
