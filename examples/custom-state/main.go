// Command custom-state is a support-triage graph over a state of its own:
// a function edge drops spam, and a decision-table edge picks the queue
// from the category and the customer's plan. The table is evaluated once,
// by the node that owns the decision, and the edge reads what it recorded.
//
// Run it with `go run ./examples/custom-state`; it prints output.txt.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/sgrgraph/sgrgraph/graph"
	"github.com/sgrgraph/sgrgraph/tables"
)

// Ticket is the graph's state.
type Ticket struct {
	Text     string
	Plan     string // the customer's plan: free or business
	Category string
	Reply    string
	tables.Decisions
}

// queues is the decision table of the triage edge.
var queues = tables.Table{
	ID: "TRIAGE", Name: "queue", Title: "Which queue a ticket goes to",
	Inputs:  []tables.Column{{Name: "category", Type: tables.TypeString}, {Name: "plan", Type: tables.TypeString}},
	Outputs: []tables.Column{{Name: "queue", Type: tables.TypeString}},
	Rules: []tables.Rule{
		{Inputs: []string{`"outage"`, `"business"`}, Outputs: []string{"oncall"}},
		{Inputs: []string{`"outage","billing"`, "-"}, Outputs: []string{"support"}},
		{Inputs: []string{"-", "-"}, Outputs: []string{"self_service"}},
	},
}

func classify(_ context.Context, t *Ticket) (*Ticket, error) {
	text := strings.ToLower(t.Text)
	switch {
	case strings.Contains(text, "winner"):
		t.Category = "spam"
	case strings.Contains(text, "down"):
		t.Category = "outage"
	case strings.Contains(text, "invoice"):
		t.Category = "billing"
	default:
		t.Category = "question"
	}
	return t, nil
}

func notSpam(_ context.Context, t *Ticket) (string, error) {
	if t.Category == "spam" {
		return "spam", nil
	}
	return "ticket", nil
}

// triage owns the TRIAGE decision: it evaluates the table once and records it.
func triage(table *tables.Table) graph.NodeFunc[*Ticket] {
	return func(_ context.Context, t *Ticket) (*Ticket, error) {
		d, err := table.Evaluate(map[string]any{"category": t.Category, "plan": t.Plan})
		if err != nil {
			return nil, err
		}
		t.Record(d)
		return t, nil
	}
}

func reply(text string) graph.NodeFunc[*Ticket] {
	return func(_ context.Context, t *Ticket) (*Ticket, error) {
		t.Reply = text
		return t, nil
	}
}

func build(ctx context.Context) (*graph.Runnable[*Ticket], error) {
	table, err := tables.New(queues)
	if err != nil {
		return nil, err
	}
	return graph.New[*Ticket]("triage").
		AddNode("classify", classify).
		AddNode("triage", triage(table)).
		AddNode("page_oncall", reply("paged the on-call engineer")).
		AddNode("open_case", reply("opened a support case")).
		AddNode("send_article", reply("sent a help-centre article")).
		AddEdge(graph.START, "classify").
		AddConditionalEdges("classify", graph.ByFunc(notSpam), map[string]string{"spam": graph.END, "ticket": "triage"}).
		AddConditionalEdges("triage", graph.ByTable[*Ticket](table, "queue"),
			map[string]string{"oncall": "page_oncall", "support": "open_case", "self_service": "send_article"}).
		AddEdge("page_oncall", graph.END).
		AddEdge("open_case", graph.END).
		AddEdge("send_article", graph.END).
		Compile(ctx)
}

func run(ctx context.Context, w io.Writer) error {
	r, err := build(ctx)
	if err != nil {
		return err
	}
	for _, in := range []Ticket{
		{Text: "The API is down!", Plan: "business"},
		{Text: "The API is down", Plan: "free"},
		{Text: "Where is my invoice?", Plan: "free"},
		{Text: "How do I export data?", Plan: "business"},
		{Text: "You are a WINNER", Plan: "free"},
	} {
		t, err := r.Invoke(ctx, &in)
		if err != nil {
			return err
		}
		rule := "no table decision"
		if d, ok := t.Decision("TRIAGE"); ok {
			rule = fmt.Sprintf("TRIAGE rule %d → %s", d.Rule, d.Get("queue"))
		}
		reply := t.Reply
		if reply == "" {
			reply = "dropped"
		}
		fmt.Fprintf(w, "%-24q %-8s %-9s %-27s %s\n", t.Text, t.Plan, t.Category, rule, reply)
	}
	fmt.Fprint(w, "\n", r.Mermaid())
	return nil
}

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
