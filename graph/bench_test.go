package graph

import (
	"context"
	"fmt"
	"testing"

	"github.com/cloudwego/eino/compose"

	"github.com/sgrgraph/sgrgraph/contracts"
)

func bump(_ context.Context, s *contracts.ChatState) (*contracts.ChatState, error) {
	s.ReactIters++
	return s, nil
}

// BenchmarkBuilderGraph: seven nodes in a row with a router after the
// fourth, compiled through StateGraph (timings and logging per node).
func BenchmarkBuilderGraph(b *testing.B) {
	g := New("bench")
	prev := START
	for i := 0; i < 7; i++ {
		name := fmt.Sprintf("n%d", i)
		g.AddNode(name, bump)
		if i != 4 {
			g.AddEdge(prev, name)
		}
		prev = name
	}
	g.AddConditionalEdges("n3", func(context.Context, *contracts.ChatState) (string, error) { return "on", nil }, map[string]string{"on": "n4"})
	g.AddEdge(prev, END)
	r, err := g.Compile(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	runTurns(b, r.Invoke)
}

// BenchmarkBareEinoGraph: the same shape built directly on eino compose.
func BenchmarkBareEinoGraph(b *testing.B) {
	g := compose.NewGraph[*contracts.ChatState, *contracts.ChatState]()
	prev := compose.START
	for i := 0; i < 7; i++ {
		name := fmt.Sprintf("n%d", i)
		if err := g.AddLambdaNode(name, compose.InvokableLambda(bump)); err != nil {
			b.Fatal(err)
		}
		if i != 4 {
			_ = g.AddEdge(prev, name)
		}
		prev = name
	}
	_ = g.AddBranch("n3", compose.NewGraphBranch(func(context.Context, *contracts.ChatState) (string, error) { return "n4", nil },
		map[string]bool{"n4": true}))
	_ = g.AddEdge(prev, compose.END)
	r, err := g.Compile(context.Background(), compose.WithMaxRunSteps(DefaultMaxSteps))
	if err != nil {
		b.Fatal(err)
	}
	runTurns(b, r.Invoke)
}

// runTurns runs invoke once per iteration on a fresh state.
func runTurns(b *testing.B, invoke func(context.Context, *contracts.ChatState, ...compose.Option) (*contracts.ChatState, error)) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := invoke(context.Background(), &contracts.ChatState{}); err != nil {
			b.Fatal(err)
		}
	}
}
