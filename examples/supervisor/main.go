// Command supervisor shows a multi-agent graph: a triage agent reads each
// question and hands it on with a hand-off tool (prebuilt.HandoffTool,
// LangGraph's transfer_to_<agent>): billing questions to a billing agent
// with an invoice tool, documentation questions to sgrgraph's guarded SGR
// turn (agent.Agent, offline, the embedded docs as its knowledge base),
// and it answers small talk itself.
//
// Triage and billing are prebuilt agents run as subgraphs of the
// supervisor graph. A hand-off call makes the triage agent's tool node
// call graph.GotoParent: the triage subgraph ends and the supervisor goes
// on at the named agent's node, which sees the whole conversation.
//
// Their models are rule-based stand-ins written below (ruleModel), so the
// program runs offline and prints the same lines each time; a real chat
// model takes their place unchanged.
//
// Run it with `go run ./examples/supervisor`; it prints output.txt.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/graph"
	"github.com/sgrgraph/sgrgraph/prebuilt"
)

// State is the supervisor's state: the conversation.
type State = prebuilt.MessagesState

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(ctx context.Context, w io.Writer) error {
	// The docs agent: the default guarded turn, offline.
	cache, err := os.MkdirTemp("", "supervisor-example")
	if err != nil {
		return err
	}
	defer os.RemoveAll(cache)
	cfg := config.Default()
	cfg.KB.CacheDir = cache
	docs, err := agent.New(ctx, cfg, agent.Options{})
	if err != nil {
		return err
	}
	defer docs.Close()

	g, err := supervisor(ctx, docs)
	if err != nil {
		return err
	}
	for _, q := range []string{
		"Why was I charged twice for invoice INV-1042?",
		"How do I configure the safety guard?",
		"Can I get a refund for invoice INV-2001?",
		"Hello there!",
	} {
		out, err := g.Invoke(ctx, &State{Messages: []*schema.Message{schema.UserMessage(q)}})
		if err != nil {
			return fmt.Errorf("%q: %w", q, err)
		}
		last := out.Messages[len(out.Messages)-1]
		first, _, _ := strings.Cut(last.Content, "\n")
		fmt.Fprintf(w, "%s -> %s: %s\n", q, last.Name, first)
	}
	return nil
}

// supervisor builds the graph: triage first, then billing or docs when
// triage hands the conversation to them.
func supervisor(ctx context.Context, docs *agent.Agent) (*graph.Runnable[*State], error) {
	toBilling, err := prebuilt.HandoffTool("billing", "Hand questions about invoices, charges and refunds to the billing agent.")
	if err != nil {
		return nil, err
	}
	toDocs, err := prebuilt.HandoffTool("docs", "Hand questions about using and configuring sgrgraph to the documentation agent.")
	if err != nil {
		return nil, err
	}
	triage, err := prebuilt.NewAgent[*State](ctx, ruleModel{triageRules}, []tool.BaseTool{toBilling, toDocs},
		prebuilt.WithName[*State]("triage"))
	if err != nil {
		return nil, err
	}
	lookup, err := prebuilt.NewTool("lookup_invoice", "Look an invoice up by its number.", lookupInvoice)
	if err != nil {
		return nil, err
	}
	billing, err := prebuilt.NewAgent[*State](ctx, ruleModel{billingRules}, []tool.BaseTool{lookup},
		prebuilt.WithName[*State]("billing"),
		prebuilt.WithSystemPrompt[*State]("You are the billing agent. Look invoices up before you answer."))
	if err != nil {
		return nil, err
	}
	return graph.New[*State]("supervisor").
		// The hand-off tools go to billing or docs (WithDestinations);
		// when triage answers itself, the run ends.
		AddNode("triage", triageNode(triage), graph.WithDestinations("billing", "docs", graph.END)).
		AddNode("billing", named("billing", graph.Subgraph(billing))).
		AddNode("docs", docsNode(docs)).
		AddEdge(graph.START, "triage").
		AddEdge("billing", graph.END).
		AddEdge("docs", graph.END).
		Compile(ctx)
}

// triageNode runs the triage agent. A hand-off sends the supervisor on
// by itself (GotoParent); an answer of triage's own ends the run.
func triageNode(triage *graph.Runnable[*State]) graph.NodeFunc[*State] {
	sub := named("triage", graph.Subgraph(triage))
	return func(ctx context.Context, s *State) (*State, error) {
		out, err := sub(ctx, s)
		if err == nil && prebuilt.HandedTo(out.Messages) == "" {
			graph.Goto(ctx, graph.END)
		}
		return out, err
	}
}

// docsNode asks the guarded SGR turn the user's question and adds its
// answer to the conversation.
func docsNode(docs *agent.Agent) graph.NodeFunc[*State] {
	return func(ctx context.Context, s *State) (*State, error) {
		res, err := docs.Run(ctx, agent.Turn{SessionID: "supervisor", Message: lastUser(s.Messages)})
		if err != nil {
			return s, err
		}
		m := schema.AssistantMessage(res.Answer, nil)
		m.Name = "docs"
		s.Messages = append(s.Messages, m)
		return s, nil
	}
}

// named signs the assistant messages a node adds with the agent's name.
func named(name string, fn graph.NodeFunc[*State]) graph.NodeFunc[*State] {
	return func(ctx context.Context, s *State) (*State, error) {
		before := len(s.Messages)
		out, err := fn(ctx, s)
		if err != nil || len(out.Messages) < before {
			return out, err
		}
		for i, m := range out.Messages[before:] {
			if m.Role == schema.Assistant && m.Name == "" {
				c := *m
				c.Name = name
				out.Messages[before+i] = &c
			}
		}
		return out, nil
	}
}

// invoices is the billing system the lookup tool reads.
var invoices = map[string]string{
	"INV-1042": "INV-1042: 49.00 EUR, paid by card; charged twice on 3 March, the second charge refunded on 4 March",
	"INV-2001": "INV-2001: 120.00 EUR, paid on 12 March; refundable until 11 April",
}

type invoiceArgs struct {
	Number string `json:"number" jsonschema:"description=the invoice number, such as INV-1042"`
}

func lookupInvoice(_ context.Context, in invoiceArgs) (string, error) {
	if inv, ok := invoices[in.Number]; ok {
		return inv, nil
	}
	return "", fmt.Errorf("no invoice %s", in.Number)
}

// ruleModel is a rule-based stand-in for a chat model: rules reads the
// conversation and writes the reply a real model would.
type ruleModel struct {
	rules func(ms []*schema.Message) *schema.Message
}

func (r ruleModel) Generate(_ context.Context, in []*schema.Message, _ ...model.Option) (*schema.Message, error) {
	return r.rules(in), nil
}

func (r ruleModel) Stream(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	m, err := r.Generate(ctx, in, opts...)
	if err != nil {
		return nil, err
	}
	return schema.StreamReaderFromArray([]*schema.Message{m}), nil
}

var _ model.BaseChatModel = ruleModel{}

var invoiceNumber = regexp.MustCompile(`INV-\d+`)

// triageRules hands invoice questions to billing, how-to questions to
// docs, and greets.
func triageRules(ms []*schema.Message) *schema.Message {
	q := strings.ToLower(lastUser(ms))
	switch {
	case invoiceNumber.MatchString(lastUser(ms)) || strings.Contains(q, "refund") || strings.Contains(q, "charge"):
		return call("transfer_to_billing", `{}`)
	case strings.HasPrefix(q, "how") || strings.Contains(q, "configure"):
		return call("transfer_to_docs", `{}`)
	}
	return schema.AssistantMessage("Hello! I route billing and documentation questions: ask me one.", nil)
}

// billingRules looks the invoice up, then answers from what the lookup
// returned.
func billingRules(ms []*schema.Message) *schema.Message {
	if last := ms[len(ms)-1]; last.Role == schema.Tool && last.ToolName == "lookup_invoice" {
		if strings.HasPrefix(last.Content, "error:") {
			return schema.AssistantMessage("I could not find that invoice; please check its number.", nil)
		}
		number, facts, _ := strings.Cut(last.Content, ": ")
		return schema.AssistantMessage(fmt.Sprintf("Invoice %s: %s.\nAnything else about it?", number, facts), nil)
	}
	return call("lookup_invoice", fmt.Sprintf(`{"number":%q}`, invoiceNumber.FindString(lastUser(ms))))
}

func call(name, args string) *schema.Message {
	return schema.AssistantMessage("", []schema.ToolCall{{ID: "call_" + name, Type: "function", Function: schema.FunctionCall{Name: name, Arguments: args}}})
}

func lastUser(ms []*schema.Message) string {
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].Role == schema.User {
			return ms[i].Content
		}
	}
	return ""
}
