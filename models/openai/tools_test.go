package openai

import (
	"context"
	"sync"
	"testing"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/sgrtest"
	"github.com/sgrgraph/sgrgraph/sgrtest/openaitest"
	"github.com/sgrgraph/sgrgraph/tools"
)

// One ToolInfo offered to many calls at once, as the planning tool is:
// each call builds its request from its own copy (go test -race fails
// here without it), and the copy offers the same schema, fields in order.
func TestOneToolInfoOfferedToCallsAtOnce(t *testing.T) {
	info, err := tools.SGRToolInfo(tools.SGROptions{Language: "en"})
	require.NoError(t, err)
	srv := openaitest.New(sgrtest.NewScriptedModel(sgrtest.ToolCall(tools.SGRToolName, `{}`)).Repeat())
	defer srv.Close()
	m := newModel(t, srv, ForcedNamed)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			_, err := m.Generate(context.Background(), []*schema.Message{schema.UserMessage("hi")},
				model.WithTools([]*schema.ToolInfo{info}), model.WithToolChoice(schema.ToolChoiceForced, tools.SGRToolName))
			assert.NoError(t, err)
		})
	}
	wg.Wait()

	own, err := copyTool(info)
	require.NoError(t, err)
	want, err := info.ParamsOneOf.ToJSONSchema()
	require.NoError(t, err)
	got, err := own.ParamsOneOf.ToJSONSchema()
	require.NoError(t, err)
	assert.Equal(t, want.Required, got.Required)
	var wantKeys, gotKeys []string
	for p := want.Properties.Oldest(); p != nil; p = p.Next() {
		wantKeys = append(wantKeys, p.Key)
	}
	for p := got.Properties.Oldest(); p != nil; p = p.Next() {
		gotKeys = append(gotKeys, p.Key)
	}
	assert.Equal(t, wantKeys, gotKeys, "the reasoning steps keep their order")
}
