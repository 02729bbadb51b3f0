package offline

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/cloudwego/eino/schema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRetriesChangeTheAttempt plays a turn the Guardian keeps rejecting,
// with every required action in turn: each retry searches queries not made
// before or redoes the draft on what was found, and no draft repeats the
// one before it, even once every query has been made.
func TestRetriesChangeTheAttempt(t *testing.T) {
	ctx := context.Background()
	e := engine()
	in := []*schema.Message{schema.UserMessage("How do I configure the safety guard mode?")}
	asked := map[string]bool{}
	var last string
	for i, action := range []string{"", "RETRIEVE_MORE", "REGENERATE_DRAFT", "REFINE_QUERY", "RETRIEVE_MORE", "RETRIEVE_MORE", "RESTRICT_SCOPE", "RETRIEVE_MORE", "ADD_EVIDENCE"} {
		if action != "" {
			in = append(in, schema.UserMessage(ReviewPrefix+" Your previous answer was not accepted.\nRequired actions:\n- "+action+": do it"))
		}
		for step := 0; step < 3; step++ {
			msg, err := e.Generate(ctx, in, agentOpts(schema.ToolChoiceAllowed)...)
			require.NoError(t, err)
			in = append(in, msg)
			if len(msg.ToolCalls) == 0 {
				assert.NotEqual(t, last, msg.Content, "attempt %d (%s) repeats the draft before it", i+1, action)
				last = msg.Content
				break
			}
			if action == "REGENERATE_DRAFT" || action == "RESTRICT_SCOPE" {
				t.Errorf("attempt %d: %s needs no new search", i+1, action)
			}
			for _, c := range msg.ToolCalls {
				var args struct{ Query string }
				require.NoError(t, json.Unmarshal([]byte(c.Function.Arguments), &args))
				assert.False(t, asked[args.Query], "attempt %d searches %q again", i+1, args.Query)
				asked[args.Query] = true
				in = append(in, schema.ToolMessage(searchResult(t), c.ID, schema.WithToolName("search_kb")))
			}
		}
	}
}
