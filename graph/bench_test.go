package graph

import (
	"context"
	"fmt"
	"testing"

	"github.com/cloudwego/eino/compose"
)

// The default graph's shape: guardian_verify → sgr_plan → inject_synthetic →
// react_agent → evidence_check → contract_check → END, or → retry_bump →
// react_agent, with no-op nodes. loops is how many times contract_check
// sends the run back.
var shape = []string{"guardian_verify", "sgr_plan", "inject_synthetic", "react_agent", "evidence_check", "contract_check"}

type benchState struct{ Retries, Loops int }

func noop(_ context.Context, s *benchState) (*benchState, error) { return s, nil }

func bump(_ context.Context, s *benchState) (*benchState, error) { s.Retries++; return s, nil }

func verdict(_ context.Context, s *benchState) (string, error) {
	if s.Retries < s.Loops {
		return "retry", nil
	}
	return "pass", nil
}

func frameworkShape(b *testing.B) *Runnable[*benchState] {
	g := New[*benchState]("shape")
	prev := START
	for _, n := range shape {
		g.AddNode(n, noop).AddEdge(prev, n)
		prev = n
	}
	g.AddNode("retry_bump", bump).AddEdge("retry_bump", "react_agent").
		AddConditionalEdges(prev, ByFunc(verdict), map[string]string{"retry": "retry_bump", "pass": END})
	r, err := g.Compile(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	return r
}

func einoShape(b *testing.B) compose.Runnable[*benchState, *benchState] {
	g := compose.NewGraph[*benchState, *benchState]()
	prev := compose.START
	for _, n := range append(shape, "retry_bump") {
		fn := noop
		if n == "retry_bump" {
			fn = bump
		}
		if err := g.AddLambdaNode(n, compose.InvokableLambda(fn)); err != nil {
			b.Fatal(err)
		}
		if n != "retry_bump" {
			_ = g.AddEdge(prev, n)
			prev = n
		}
	}
	_ = g.AddEdge("retry_bump", "react_agent")
	_ = g.AddBranch(prev, compose.NewGraphBranch(func(ctx context.Context, s *benchState) (string, error) {
		if k, _ := verdict(ctx, s); k == "retry" {
			return "retry_bump", nil
		}
		return compose.END, nil
	}, map[string]bool{"retry_bump": true, compose.END: true}))
	r, err := g.Compile(context.Background(), compose.WithMaxRunSteps(DefaultMaxSteps))
	if err != nil {
		b.Fatal(err)
	}
	return r
}

// BenchmarkShape compares the framework with a bare eino graph of the same
// shape: steps/op is the node steps of one run, so the difference of the two
// ns/op divided by it is the framework's overhead per node step.
func BenchmarkShape(b *testing.B) {
	for _, loops := range []int{0, 3} {
		steps := float64(len(shape) + loops*4)
		b.Run(fmt.Sprintf("loops=%d/framework", loops), func(b *testing.B) {
			r := frameworkShape(b)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := r.Invoke(context.Background(), &benchState{Loops: loops}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(steps, "steps/op")
		})
		b.Run(fmt.Sprintf("loops=%d/eino", loops), func(b *testing.B) {
			r := einoShape(b)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := r.Invoke(context.Background(), &benchState{Loops: loops}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(steps, "steps/op")
		})
	}
}

// BenchmarkFanOut10 runs ten parallel branches from one node and merges
// them with the field reducers at a join.
func BenchmarkFanOut10(b *testing.B) {
	g := New[*state]("fan10").AddNode("split", visit("split")).AddNode("join", visit("join")).
		AddEdge(START, "split").AddEdge("join", END)
	for i := range 10 {
		n := fmt.Sprintf("b%d", i)
		g.AddNode(n, visit(n)).AddEdge("split", n).AddEdge(n, "join")
	}
	r, err := g.Compile(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		out, err := r.Invoke(context.Background(), &state{})
		if err != nil || len(out.Path) != 12 {
			b.Fatal(err, out)
		}
	}
}
