package graph_test

import (
	"context"
	"fmt"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/sgrgraph/sgrgraph/graph"
)

// WithTracing gives each node a span, named after it, inside one span for
// the run (named after the graph) when the caller has none of its own. Pass
// the TracerProvider your program exports with; here spans are kept in
// memory to print them.
func ExampleWithTracing() {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	r, err := graph.New[*Order]("order").
		AddNode("basket", add("basket", 0)).
		AddNode("pay", add("receipt", 0)).
		AddEdge(graph.START, "basket").AddEdge("basket", "pay").AddEdge("pay", graph.END).
		Compile(context.Background(), graph.WithTracing(tp))
	if err != nil {
		panic(err)
	}
	if _, err := r.Invoke(context.Background(), &Order{}); err != nil {
		panic(err)
	}
	root := rec.Ended()[len(rec.Ended())-1]
	for _, s := range rec.Ended() {
		fmt.Println(s.Name(), "in the run's span:", s.Parent().SpanID() == root.SpanContext().SpanID())
	}
	// Output:
	// basket in the run's span: true
	// pay in the run's span: true
	// order in the run's span: false
}
