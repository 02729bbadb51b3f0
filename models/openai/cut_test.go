package openai

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/cloudwego/eino/schema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/outbound"
	"github.com/sgrgraph/sgrgraph/sgrtest"
	"github.com/sgrgraph/sgrgraph/sgrtest/openaitest"
)

// A server that closes the connection part way through an answer looks,
// to the client, like a stream that ended: only the missing finish_reason
// tells. Such a reply must be asked again, never taken as the answer.
func TestStreamClosedBeforeItsEnd(t *testing.T) {
	text := sgrtest.Text("Set the mode with guard.mode, as the guard article says.")
	call := sgrtest.ToolCall("search_kb", `{"query":"guard mode settings"}`)
	tests := []struct {
		name  string
		reply sgrtest.Reply
		cut   openaitest.Fault
	}{
		{"in the text", text, openaitest.Fault{CloseAfter: 3}},
		{"in the middle of a line", text, openaitest.Fault{CloseAfterBytes: 300}},
		{"before any chunk", text, openaitest.Fault{CloseAfterBytes: 1}},
		{"in the tool-call arguments", call, openaitest.Fault{CloseAfter: 3}},
		{"after the tool-call arguments", call, openaitest.Fault{CloseAfter: 4}},
	}
	for _, tc := range tests {
		for _, recovers := range []bool{true, false} {
			name := tc.name + "/always"
			if recovers {
				name = tc.name + "/once"
			}
			t.Run(name, func(t *testing.T) {
				var n atomic.Int32
				srv := openaitest.New(sgrtest.NewScriptedModel(tc.reply).Repeat(),
					openaitest.WithFaults(func(openaitest.Request) openaitest.Fault {
						if recovers && n.Add(1) > 1 {
							return openaitest.Fault{}
						}
						return tc.cut
					}))
				defer srv.Close()
				var attempts []outbound.Attempt
				ctx := outbound.WithObserver(context.Background(), func(_ context.Context, a outbound.Attempt) { attempts = append(attempts, a) })
				sr, err := newModel(t, srv, "").Stream(ctx, []*schema.Message{schema.UserMessage("q")})
				require.NotEmpty(t, attempts)
				assert.Contains(t, attempts[0].Error, "stream cut before finish_reason")
				assert.True(t, attempts[0].Retried)
				if !recovers {
					require.Error(t, err, "a cut reply is never the answer")
					assert.Nil(t, sr)
					assert.Contains(t, err.Error(), "stream cut before finish_reason")
					assert.Contains(t, err.Error(), "after 3 tries")
					assert.Len(t, srv.Requests(), fast.Attempts)
					assert.False(t, attempts[len(attempts)-1].Retried)
					return
				}
				require.NoError(t, err)
				msg, err := schema.ConcatMessageStream(sr)
				require.NoError(t, err)
				assert.Len(t, srv.Requests(), 2)
				assert.Equal(t, tc.reply.Message.Content, msg.Content, "the whole reply, once")
				require.Len(t, msg.ToolCalls, len(tc.reply.Message.ToolCalls))
				for i := range msg.ToolCalls {
					assert.Equal(t, tc.reply.Message.ToolCalls[i].Function.Arguments, msg.ToolCalls[i].Function.Arguments)
				}
			})
		}
	}
}
