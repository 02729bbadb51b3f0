package prebuilt_test

import (
	"context"
	"fmt"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"

	"github.com/sgrgraph/sgrgraph/graph"
	"github.com/sgrgraph/sgrgraph/prebuilt"
	"github.com/sgrgraph/sgrgraph/sgrtest"
)

// Trip is a state of its own: the conversation, the traveller and the
// structured plan the agent ends with.
type Trip struct {
	prebuilt.MessagesState
	Traveller string
	Plan      *Plan
}

// Plan is the agent's structured output.
type Plan struct {
	City   string `json:"city" jsonschema:"description=where to go"`
	Pack   string `json:"pack" jsonschema:"description=what to pack"`
	Reason string `json:"reason,omitempty"`
}

type CityArgs struct {
	City string `json:"city" jsonschema:"description=the city"`
}

// The agent calls a Go function as a tool, reads the traveller from the
// run's context, answers, and ends with a Plan; the model is scripted.
func ExampleNewAgent() {
	ctx := context.Background()
	type traveller struct{ Name string }
	forecast, err := prebuilt.NewTool("forecast", "Today's weather in a city.", func(ctx context.Context, in CityArgs) (string, error) {
		who, _ := graph.ContextOf[traveller](ctx)
		return fmt.Sprintf("rain in %s (asked for %s)", in.City, who.Name), nil
	})
	if err != nil {
		panic(err)
	}
	model := sgrtest.NewScriptedModel(
		sgrtest.ToolCall("forecast", `{"city":"Bergen"}`),
		sgrtest.Text("It rains in Bergen: take a coat."),
		sgrtest.ToolCall(prebuilt.ResponseToolName, `{"city":"Bergen","pack":"a coat"}`),
	)
	agent, err := prebuilt.NewAgent(ctx, model, []tool.BaseTool{forecast},
		prebuilt.WithSystemPrompt[*Trip]("You plan trips."),
		prebuilt.WithForcedFirstToolCall[*Trip](),
		prebuilt.WithStructuredOutput(func(t *Trip, p Plan) { t.Plan = &p }))
	if err != nil {
		panic(err)
	}
	in := &Trip{MessagesState: prebuilt.MessagesState{Messages: []*schema.Message{schema.UserMessage("Bergen tomorrow?")}}}
	out, err := agent.Invoke(ctx, in, graph.WithContext(traveller{Name: "Ann"}))
	if err != nil {
		panic(err)
	}
	for _, m := range out.Messages {
		for _, c := range m.ToolCalls {
			fmt.Printf("%s calls %s %s\n", m.Role, c.Function.Name, c.Function.Arguments)
		}
		if m.Content != "" {
			fmt.Printf("%s: %s\n", m.Role, m.Content)
		}
	}
	fmt.Printf("plan: %+v\n", *out.Plan)
	for i, r := range model.Requests() {
		fmt.Printf("call %d: tool choice %s, tools %v\n", i+1, r.ToolChoice, r.Tools)
	}
	// Output:
	// user: Bergen tomorrow?
	// assistant calls forecast {"city":"Bergen"}
	// tool: rain in Bergen (asked for Ann)
	// assistant: It rains in Bergen: take a coat.
	// plan: {City:Bergen Pack:a coat Reason:}
	// call 1: tool choice required, tools [forecast]
	// call 2: tool choice auto, tools [forecast]
	// call 3: tool choice required, tools [final_response]
}

// Trim keeps the system message and the newest messages within the
// budget, a tool call with its answer, starting on a user message.
func ExampleTrim() {
	history := []*schema.Message{
		schema.SystemMessage("You plan trips."),
		schema.UserMessage("I want to see fjords in May; where should I go, and how do I get around without a car?"),
		schema.AssistantMessage("Bergen, then the Sognefjord by boat and the Flåm railway.", nil),
		schema.UserMessage("Bergen tomorrow?"),
		schema.AssistantMessage("", []schema.ToolCall{{ID: "1", Function: schema.FunctionCall{Name: "forecast", Arguments: `{"city":"Bergen"}`}}}),
		schema.ToolMessage("rain, 11°C", "1", schema.WithToolName("forecast")),
		schema.AssistantMessage("Rain: take a coat.", nil),
	}
	fmt.Println("tokens:", prebuilt.CountTokens(history))
	for _, m := range prebuilt.Trim(history, prebuilt.TrimOptions{MaxTokens: 60}) {
		fmt.Printf("%s: %s%s\n", m.Role, m.Content, callsOf(m))
	}
	// Output:
	// tokens: 95
	// system: You plan trips.
	// user: Bergen tomorrow?
	// assistant: forecast {"city":"Bergen"}
	// tool: rain, 11°C
	// assistant: Rain: take a coat.
}

func callsOf(m *schema.Message) string {
	out := ""
	for _, c := range m.ToolCalls {
		out += c.Function.Name + " " + c.Function.Arguments
	}
	return out
}
