package tests

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/cloudwego/eino/components/tool/utils"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/sgrtest"
)

// Example_extendTheDefaultTurn is docs/extending.md's example, which
// TestDocSnippets keeps the same: a tool of your own whose results are
// database evidence, and a node of your own in place of finalize. A
// scripted model plays the planner and the agent.
func Example_extendTheDefaultTurn() {
	ctx := context.Background()
	status := func(id string) string { return "order " + id + ": shipped" }
	myFinalize := func(_ context.Context, s *contracts.ChatState) (*contracts.ChatState, error) {
		s.Answer = s.Draft + "\n— answered by the order desk"
		return s, nil
	}
	plan, _ := json.Marshal(contracts.SGRPlan{SpamScore: 0.01, UserIntent: "order status", Topic: "orders", Category: "orders",
		RequestType: contracts.RequestStatusSummary, AnswerLanguage: "en", Subqueries: []string{"order 42"},
		IntentConfidence: 0.9, Action: contracts.ActionNormal})
	model := sgrtest.NewScriptedModel(
		sgrtest.ToolCall("analyse_user_request", string(plan)),
		sgrtest.ToolCall("order_status", `{"id":"42"}`),
		sgrtest.Text("Order 42 has shipped [1]."),
	)

	type order struct {
		ID string `json:"id"`
	}
	lookup, _ := utils.InferTool("order_status", "Looks up an order's status.",
		func(ctx context.Context, o order) (string, error) { return status(o.ID), nil })
	o := agent.Options{
		Tools:   []agent.Tool{{InvokableTool: lookup, Source: contracts.SourceDB}},
		Replace: agent.Nodes{Finalize: myFinalize},
	}

	o.Model, o.Searcher = model, instantSearch{} // test doubles: the scripted model, an index that answers at once
	cfg := config.Default()
	cfg.Guardian.QualityMinItems = 1 // one lookup is evidence enough for a status
	a, err := agent.New(ctx, cfg, o)
	if err != nil {
		panic(err)
	}
	s, err := a.RunState(ctx, agent.Turn{Message: "Where is order 42?"})
	if err != nil {
		panic(err)
	}
	fmt.Println(s.Verdict.Verdict, s.Evidence[0].Source, s.Evidence[0].Ref)
	fmt.Println(s.Answer)
	// Output:
	// PASS db order_status
	// Order 42 has shipped [1].
	// — answered by the order desk
}
