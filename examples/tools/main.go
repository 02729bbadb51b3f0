// Command tools shows the prebuilt agent over a state of the program's
// own: an expense assistant calls two Go functions as tools, one of which
// files the claim and waits for a person's approval. The approver edits
// the amount, and the resumed run streams the model's answer token by
// token.
//
// The tools take typed input structs (prebuilt.NewTool, eino's
// InferTool); file_expense also reads a copy of the state
// (prebuilt.NewStateTool) and the ledger from the run's context
// (graph.ContextOf). The model is scripted (sgrtest), so the program runs
// offline; a real chat model takes its place unchanged.
//
// Run it with `go run ./examples/tools`; it prints output.txt.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/graph"
	"github.com/sgrgraph/sgrgraph/prebuilt"
	"github.com/sgrgraph/sgrgraph/sgrtest"
)

// Claim is the graph's state: the conversation and whose claim it is.
type Claim struct {
	prebuilt.MessagesState
	Employee string
	Currency string
}

// Ledger is where filed expenses go; the run's context carries it.
type Ledger struct {
	mu    sync.Mutex
	Lines []string
}

// PolicyArgs is the input of lookup_policy.
type PolicyArgs struct {
	Category string `json:"category" jsonschema:"description=the kind of expense: hotel, meal, travel"`
}

// ExpenseArgs is the input of file_expense.
type ExpenseArgs struct {
	Amount   float64 `json:"amount" jsonschema:"description=the amount to claim"`
	Category string  `json:"category"`
	Note     string  `json:"note,omitempty"`
}

var limits = map[string]float64{"hotel": 150, "meal": 40, "travel": 500}

func lookupPolicy(_ context.Context, in PolicyArgs) (string, error) {
	limit, ok := limits[in.Category]
	if !ok {
		return "", fmt.Errorf("no policy for %q", in.Category)
	}
	return fmt.Sprintf("%s: up to %.0f EUR", in.Category, limit), nil
}

func fileExpense(ctx context.Context, c *Claim, in ExpenseArgs) (string, error) {
	ledger, ok := graph.ContextOf[*Ledger](ctx)
	if !ok {
		return "", errors.New("no ledger in the run's context")
	}
	line := fmt.Sprintf("%s %.2f %s %s (%s)", c.Employee, in.Amount, c.Currency, in.Category, in.Note)
	ledger.mu.Lock()
	ledger.Lines = append(ledger.Lines, line)
	ledger.mu.Unlock()
	return "filed: " + line, nil
}

// newAgent builds the assistant; every piece of it is prebuilt.
func newAgent(ctx context.Context, model *sgrtest.ScriptedModel) (*graph.Runnable[*Claim], error) {
	policy, err := prebuilt.NewTool("lookup_policy", "The company's limit for a kind of expense.", lookupPolicy)
	if err != nil {
		return nil, err
	}
	file, err := prebuilt.NewStateTool("file_expense", "Files an expense claim for the employee.", fileExpense)
	if err != nil {
		return nil, err
	}
	return prebuilt.NewAgent(ctx, model, []tool.BaseTool{policy, file},
		prebuilt.WithSystemPrompt[*Claim]("You file expense claims within the company's policy."),
		prebuilt.WithApprovalBefore[*Claim]("file_expense"),
		prebuilt.WithCompileOptions[*Claim](graph.WithCheckpointer(checkpoint.NewMemory())))
}

func run(ctx context.Context, w io.Writer) error {
	model := sgrtest.NewScriptedModel(
		sgrtest.ToolCall("lookup_policy", `{"category":"hotel"}`),
		sgrtest.ToolCall("file_expense", `{"amount":180,"category":"hotel","note":"Oslo"}`),
		sgrtest.Chunks("Filed ", "150 EUR, ", "the hotel limit; ", "the other 30 EUR ", "are yours."),
	)
	agent, err := newAgent(ctx, model)
	if err != nil {
		return err
	}
	ledger := &Ledger{}
	thread, carry := graph.WithThread("claim-1"), graph.WithContext(ledger)
	in := &Claim{Employee: "ann", Currency: "EUR",
		MessagesState: prebuilt.MessagesState{Messages: []*schema.Message{schema.UserMessage("File my 180 EUR hotel bill from Oslo.")}}}

	_, err = agent.Invoke(ctx, in, thread, carry)
	var paused *graph.InterruptError
	if !errors.As(err, &paused) {
		return fmt.Errorf("expected a pause for approval, got %w", err)
	}
	fmt.Fprintf(w, "paused at %s: %s\n", paused.Pending().Node, paused.Pending().Payload)
	decision := prebuilt.Edit(`{"amount":150,"category":"hotel","note":"Oslo, capped at the limit"}`)
	fmt.Fprintf(w, "approver: %s %s\n", decision.Action, decision.Arguments)

	var out *Claim
	fmt.Fprint(w, "streamed:")
	for c, err := range agent.Stream(ctx, nil, thread, carry, graph.WithResume(decision), graph.WithStreamModes(graph.StreamMessages)) {
		if err != nil {
			return err
		}
		switch c.Mode {
		case graph.StreamMessages:
			fmt.Fprintf(w, " [%s]", c.Message.(*schema.Message).Content)
		case graph.StreamEnd:
			out = c.State
		}
	}
	fmt.Fprintln(w)

	fmt.Fprintln(w, "conversation:")
	for _, m := range out.Messages {
		for _, c := range m.ToolCalls {
			fmt.Fprintf(w, "  %s calls %s %s\n", m.Role, c.Function.Name, c.Function.Arguments)
		}
		switch {
		case m.Role == schema.Tool:
			fmt.Fprintf(w, "  tool %s: %s\n", m.ToolName, m.Content)
		case m.Content != "":
			fmt.Fprintf(w, "  %s: %s\n", m.Role, m.Content)
		}
	}
	fmt.Fprintf(w, "ledger: %s\n", strings.Join(ledger.Lines, "; "))
	fmt.Fprintf(w, "model calls: %d\n", len(model.Requests()))
	return nil
}

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
