// Command tracing shows graph.WithTracing: every node gets a span, with
// the decision-table row it recorded, and the eino chat model called inside
// a node gets a "chat" span of the OpenTelemetry GenAI conventions, nested
// in its node's.
//
// Run it with `go run ./examples/tracing`; it prints the span tree of
// output.txt. With OTEL_EXPORTER_OTLP_ENDPOINT set it exports the spans
// there instead (docs/observability.md has a Jaeger recipe).
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/sgrgraph/sgrgraph/graph"
	"github.com/sgrgraph/sgrgraph/models"
	"github.com/sgrgraph/sgrgraph/tables"
	"github.com/sgrgraph/sgrgraph/telemetry"
)

// Ticket is the graph's state; tables.Decisions lets its nodes record
// decisions, which their spans show.
type Ticket struct {
	Text, Queue, Reply string
	tables.Decisions
}

var queues = tables.Table{
	ID: "QUEUE", Name: "queue", Title: "Which queue a ticket goes to",
	Inputs:  []tables.Column{{Name: "urgent", Type: tables.TypeBool}},
	Outputs: []tables.Column{{Name: "queue", Type: tables.TypeString}},
	Rules:   []tables.Rule{{Inputs: []string{"true"}, Outputs: []string{"oncall"}}, {Inputs: []string{"-"}, Outputs: []string{"support"}}},
}

// writer is a chat model of sgrgraph's models package; any eino model that
// reports its callbacks (eino-ext's do) is traced the same way.
var writer = models.New("Example", func(_ context.Context, in []*schema.Message, _ *model.Options) ([]*schema.Message, error) {
	return []*schema.Message{{Role: schema.Assistant, Content: "We are on it.",
		ResponseMeta: &schema.ResponseMeta{FinishReason: "stop", Usage: &schema.TokenUsage{PromptTokens: 12, CompletionTokens: 4}}}}, nil
})

// triage builds and runs the graph, traced by tp.
func triage(ctx context.Context, tp trace.TracerProvider) (*Ticket, error) {
	table, err := tables.New(queues)
	if err != nil {
		return nil, err
	}
	route := func(_ context.Context, t *Ticket) (*Ticket, error) {
		d, err := table.Evaluate(map[string]any{"urgent": strings.Contains(t.Text, "down")})
		t.Record(d)
		t.Queue = d.Get("queue")
		return t, err
	}
	reply := func(ctx context.Context, t *Ticket) (*Ticket, error) {
		msg, err := writer.Generate(ctx, []*schema.Message{schema.UserMessage(t.Text)})
		if err != nil {
			return t, err
		}
		t.Reply = msg.Content
		return t, nil
	}
	r, err := graph.New[*Ticket]("triage").
		AddNode("route", route).
		AddNode("reply", reply).
		AddEdge(graph.START, "route").AddEdge("route", "reply").AddEdge("reply", graph.END).
		Compile(ctx, graph.WithTracing(tp))
	if err != nil {
		return nil, err
	}
	return r.Invoke(ctx, &Ticket{Text: "The site is down"})
}

func run(ctx context.Context, w io.Writer) error {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	t, err := triage(ctx, tp)
	if err != nil {
		return err
	}
	if err := tp.Shutdown(ctx); err != nil {
		return err
	}
	fmt.Fprintf(w, "queue %s, reply %q\n", t.Queue, t.Reply)
	printTree(w, rec.Ended())
	return nil
}

// printTree prints each span under its parent, with the attributes the
// example is about.
func printTree(w io.Writer, spans []sdktrace.ReadOnlySpan) {
	children := map[trace.SpanID][]sdktrace.ReadOnlySpan{}
	for _, s := range spans {
		children[s.Parent().SpanID()] = append(children[s.Parent().SpanID()], s)
	}
	var walk func(parent trace.SpanID, depth int)
	walk = func(parent trace.SpanID, depth int) {
		kids := children[parent]
		slices.SortStableFunc(kids, func(a, b sdktrace.ReadOnlySpan) int { return a.StartTime().Compare(b.StartTime()) })
		for _, s := range kids {
			shown := []string{s.Name()}
			for _, kv := range s.Attributes() {
				switch kv.Key {
				case "sgrgraph.decision.table", "sgrgraph.decision.outputs", "gen_ai.provider.name", "gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens":
					shown = append(shown, fmt.Sprintf("%s=%s", kv.Key, kv.Value.Emit()))
				}
			}
			fmt.Fprintf(w, "%s%s\n", strings.Repeat("  ", depth), strings.Join(shown, " "))
			walk(s.SpanContext().SpanID(), depth+1)
		}
	}
	walk(trace.SpanID{}, 0)
}

func main() {
	ctx := context.Background()
	p, err := telemetry.Setup(ctx, "example")
	if err == nil && p.Enabled() {
		_, err = triage(ctx, p.TracerProvider())
		if err == nil {
			err = p.Shutdown(ctx)
		}
		fmt.Println("spans exported to the OTLP endpoint")
	} else if err == nil {
		err = run(ctx, os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
