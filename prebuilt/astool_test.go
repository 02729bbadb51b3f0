package prebuilt_test

import (
	"context"
	"errors"
	"testing"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/prebuilt"
	"github.com/sgrgraph/sgrgraph/sgrtest"
)

func TestAgentTool(t *testing.T) {
	ctx := context.Background()
	worker := sgrtest.NewScriptedModel(sgrtest.ToolCall("forecast", `{"city":"Oslo"}`), sgrtest.Text("Sunny, 21°C."))
	wa, err := prebuilt.NewAgent[*prebuilt.MessagesState](ctx, worker, []tool.BaseTool{forecastTool(t)})
	require.NoError(t, err)
	at, err := prebuilt.AgentTool("weather_agent", "Ask the weather agent.", wa)
	require.NoError(t, err)
	info, err := at.Info(ctx)
	require.NoError(t, err)
	assert.Equal(t, "weather_agent", info.Name)

	boss := sgrtest.NewScriptedModel(sgrtest.ToolCall("weather_agent", `{"input":"Weather in Oslo?"}`), sgrtest.Text("Oslo is sunny."))
	ba, err := prebuilt.NewAgent[*prebuilt.MessagesState](ctx, boss, []tool.BaseTool{at})
	require.NoError(t, err)
	out, err := ba.Invoke(ctx, &prebuilt.MessagesState{Messages: []*schema.Message{schema.UserMessage("Should I take an umbrella to Oslo?")}})
	require.NoError(t, err)
	assert.Equal(t, []string{
		"user: Should I take an umbrella to Oslo?",
		"assistant weather_agent",
		"tool weather_agent: Sunny, 21°C.",
		"assistant: Oslo is sunny.",
	}, roles(out.Messages))
	req := worker.Requests()
	require.NotEmpty(t, req)
	require.Len(t, req[0].Messages, 1, "the worker sees only the input")
	assert.Equal(t, "Weather in Oslo?", req[0].Messages[0].Content)
}

func TestFuncTool(t *testing.T) {
	ctx := context.Background()
	ft, err := prebuilt.FuncTool("echo", "Echo.", func(_ context.Context, in string) (string, error) {
		if in == "" {
			return "", errors.New("empty")
		}
		return "echo: " + in, nil
	})
	require.NoError(t, err)
	out, err := ft.InvokableRun(ctx, `{"input":"hi"}`)
	require.NoError(t, err)
	assert.Equal(t, "echo: hi", out)
	_, err = ft.InvokableRun(ctx, `{}`)
	require.Error(t, err)

	_, err = prebuilt.FuncTool("x", "", nil)
	require.Error(t, err)
	_, err = prebuilt.AgentTool("x", "", nil)
	require.Error(t, err)
	_, err = prebuilt.LastAnswer([]*schema.Message{schema.UserMessage("hi")})
	require.Error(t, err)
}
