package prebuilt_test

import (
	"context"
	"testing"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/prebuilt"
)

// chat is a state of a user's own: the conversation and more.
type chat struct {
	prebuilt.MessagesState
	User   string   `json:"user"`
	Notes  []string `json:"notes"`
	Answer *weather `json:"answer,omitempty"`
}

// weather is a structured answer.
type weather struct {
	City  string  `json:"city" jsonschema:"description=the city asked about"`
	TempC float64 `json:"temp_c"`
	Note  string  `json:"note,omitempty"`
}

type cityArgs struct {
	City string `json:"city" jsonschema:"description=a city"`
}

// forecastTool answers with a fixed forecast.
func forecastTool(t *testing.T) tool.InvokableTool {
	t.Helper()
	ft, err := prebuilt.NewTool("forecast", "Today's forecast for a city.", func(_ context.Context, in cityArgs) (string, error) {
		return "sunny in " + in.City + ", 21°C", nil
	})
	require.NoError(t, err)
	return ft
}

func user(text string) *chat {
	return &chat{MessagesState: prebuilt.MessagesState{Messages: []*schema.Message{schema.UserMessage(text)}}}
}

// roles lists each message as role, with its tool calls' names or its
// tool name, for comparing conversations.
func roles(ms []*schema.Message) []string {
	var out []string
	for _, m := range ms {
		r := string(m.Role)
		for _, c := range m.ToolCalls {
			r += " " + c.Function.Name
		}
		if m.Role == schema.Tool {
			r += " " + m.ToolName + ": " + m.Content
		}
		if m.Role != schema.Tool && len(m.ToolCalls) == 0 {
			r += ": " + m.Content
		}
		out = append(out, r)
	}
	return out
}

func call(id, name, args string) schema.ToolCall {
	return schema.ToolCall{ID: id, Type: "function", Function: schema.FunctionCall{Name: name, Arguments: args}}
}

func asking(calls ...schema.ToolCall) *chat {
	s := user("q")
	s.Messages = append(s.Messages, schema.AssistantMessage("", calls))
	return s
}
