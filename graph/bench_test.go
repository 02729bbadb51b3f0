package graph

import (
	"context"
	"fmt"
	"sync"
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

func frameworkShape(b *testing.B, opts ...CompileOption) *Runnable[*benchState] {
	g := New[*benchState]("shape")
	prev := START
	for _, n := range shape {
		g.AddNode(n, noop).AddEdge(prev, n)
		prev = n
	}
	g.AddNode("retry_bump", bump).AddEdge("retry_bump", "react_agent").
		AddConditionalEdges(prev, ByFunc(verdict), map[string]string{"retry": "retry_bump", "pass": END})
	r, err := g.Compile(context.Background(), opts...)
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

// measure runs fn b.N times and reports, besides ns/op, the processor
// time per op (cpu-ns/op, see cpuTime).
func measure(b *testing.B, fn func() error) {
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		if err := fn(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// goShape runs the same shape as plain Go: the nodes called one after
// another, the router as an if.
func goShape(ctx context.Context, s *benchState) (*benchState, error) {
	var err error
	for _, fn := range []NodeFunc[*benchState]{noop, noop, noop} { // guardian_verify, sgr_plan, inject_synthetic
		if s, err = fn(ctx, s); err != nil {
			return nil, err
		}
	}
	for {
		for range 3 { // react_agent, evidence_check, contract_check
			if s, err = noop(ctx, s); err != nil {
				return nil, err
			}
		}
		k, err := verdict(ctx, s)
		if err != nil {
			return nil, err
		}
		if k != "retry" {
			return s, nil
		}
		if s, err = bump(ctx, s); err != nil {
			return nil, err
		}
	}
}

// BenchmarkShape compares the framework with a bare eino graph of the same
// shape and with plain Go: steps/op is the node steps of one run, so the
// difference of two ns/op divided by it is a cost per node step. unfused is
// the framework WithoutFusion: an eino node per node, as bare eino has.
func BenchmarkShape(b *testing.B) {
	for _, loops := range []int{0, 3} {
		steps := float64(len(shape) + loops*4)
		invoke := func(b *testing.B, fn func(context.Context, *benchState) (*benchState, error)) {
			measure(b, func() error {
				_, err := fn(context.Background(), &benchState{Loops: loops})
				return err
			})
			b.ReportMetric(steps, "steps/op")
		}
		b.Run(fmt.Sprintf("loops=%d/framework", loops), func(b *testing.B) {
			r := frameworkShape(b)
			invoke(b, func(ctx context.Context, s *benchState) (*benchState, error) { return r.Invoke(ctx, s) })
		})
		b.Run(fmt.Sprintf("loops=%d/unfused", loops), func(b *testing.B) {
			r := frameworkShape(b, WithoutFusion())
			invoke(b, func(ctx context.Context, s *benchState) (*benchState, error) { return r.Invoke(ctx, s) })
		})
		b.Run(fmt.Sprintf("loops=%d/eino", loops), func(b *testing.B) {
			r := einoShape(b)
			invoke(b, func(ctx context.Context, s *benchState) (*benchState, error) { return r.Invoke(ctx, s) })
		})
		b.Run(fmt.Sprintf("loops=%d/go", loops), func(b *testing.B) { invoke(b, goShape) })
	}
}

// BenchmarkChain runs a straight chain of n plain nodes: the difference of
// two lengths' ns/op divided by the difference of their steps is what one
// more node in a chain costs.
func BenchmarkChain(b *testing.B) {
	for _, n := range []int{1, 10, 50} {
		for _, fusion := range []bool{true, false} {
			name := "framework"
			var opts []CompileOption
			if !fusion {
				name, opts = "unfused", []CompileOption{WithoutFusion(), WithMaxSteps(n + 2)}
			}
			b.Run(fmt.Sprintf("nodes=%d/%s", n, name), func(b *testing.B) {
				g := New[*benchState]("chain")
				prev := START
				for i := range n {
					name := fmt.Sprintf("n%d", i)
					g.AddNode(name, bump).AddEdge(prev, name)
					prev = name
				}
				r, err := g.AddEdge(prev, END).Compile(context.Background(), opts...)
				if err != nil {
					b.Fatal(err)
				}
				measure(b, func() error { return chainRun(r.Invoke, n) })
			})
		}
		b.Run(fmt.Sprintf("nodes=%d/eino", n), func(b *testing.B) {
			g := compose.NewGraph[*benchState, *benchState]()
			prev := compose.START
			for i := range n {
				name := fmt.Sprintf("n%d", i)
				_ = g.AddLambdaNode(name, compose.InvokableLambda(bump))
				_ = g.AddEdge(prev, name)
				prev = name
			}
			_ = g.AddEdge(prev, compose.END)
			r, err := g.Compile(context.Background(), compose.WithMaxRunSteps(n+2))
			if err != nil {
				b.Fatal(err)
			}
			measure(b, func() error { return chainRun(r.Invoke, n) })
		})
	}
}

// chainRun runs a chain of n bump nodes once.
func chainRun[O any](invoke func(context.Context, *benchState, ...O) (*benchState, error), n int) error {
	out, err := invoke(context.Background(), &benchState{})
	if err == nil && out.Retries != n {
		err = fmt.Errorf("%d nodes ran, not %d", out.Retries, n)
	}
	return err
}

// BenchmarkNodeStep is the framework's own work for one node step, out of
// eino: the node's eino function around a node that does nothing, under a
// context as deep as eino's, with the step count it opens (in a graph that
// runs one task a step; a parallel one counts steps in a pre-handler).
func BenchmarkNodeStep(b *testing.B) {
	r, err := New[*benchState]("step").AddNode("n", noop).AddEdge(START, "n").AddEdge("n", END).
		Compile(context.Background(), WithoutFusion())
	if err != nil {
		b.Fatal(err)
	}
	ctx := r.begin(context.Background(), runOptions{})
	e := r.envOf(ctx)
	rs := runOf(ctx)
	rs.env = &e
	for i := range 12 { // eino's own values: its run, callbacks, state, node path
		ctx = context.WithValue(ctx, benchKey(i), i)
	}
	pre, fn := r.countTask(false), r.lambda("n")
	s := &benchState{}
	measure(b, func() error {
		if !r.oneTask {
			if _, err := pre(ctx, s, rs); err != nil {
				return err
			}
		}
		_, err := fn(ctx, s)
		return err
	})
}

type benchKey int

// fanOutGraph is split → b0..b9 → join: ten parallel branches from one
// node, merged with the field reducers at the join.
func fanOutGraph() *StateGraph[*state] {
	g := New[*state]("fan10").AddNode("split", visit("split")).AddNode("join", visit("join")).
		AddEdge(START, "split").AddEdge("join", END)
	for i := range 10 {
		n := fmt.Sprintf("b%d", i)
		g.AddNode(n, visit(n)).AddEdge("split", n).AddEdge(n, "join")
	}
	return g
}

// goFanOut is the fan-out in plain Go: each branch on a copy in a
// goroutine of its own (one on the caller's), merged by appending what
// each added.
func goFanOut(ctx context.Context, s *state) (*state, error) {
	s, _ = visit("split")(ctx, s)
	outs := make([]*state, 10)
	var wg sync.WaitGroup
	for i := 1; i < 10; i++ {
		wg.Go(func() { outs[i], _ = visit(branchNames[i])(ctx, s.Clone()) })
	}
	outs[0], _ = visit(branchNames[0])(ctx, s.Clone())
	wg.Wait()
	for _, o := range outs {
		s.Path = append(s.Path, o.Path[len(o.Path)-1])
	}
	return visit("join")(ctx, s)
}

var branchNames = []string{"b0", "b1", "b2", "b3", "b4", "b5", "b6", "b7", "b8", "b9"}

// einoFanOut is the fan-out as a bare eino graph: each branch copies the
// state (eino hands every successor the same pointer), and eino merges the
// ten at the join by a registered merge function.
func einoFanOut(b *testing.B) compose.Runnable[*state, *state] {
	compose.RegisterValuesMergeFunc(func(ss []*state) (*state, error) {
		out := ss[0].Clone()
		for _, s := range ss[1:] {
			out.Path = append(out.Path, s.Path[len(s.Path)-1])
		}
		return out, nil
	})
	g := compose.NewGraph[*state, *state]()
	_ = g.AddLambdaNode("split", compose.InvokableLambda((func(context.Context, *state) (*state, error))(visit("split"))))
	_ = g.AddLambdaNode("join", compose.InvokableLambda((func(context.Context, *state) (*state, error))(visit("join"))))
	_ = g.AddEdge(compose.START, "split")
	_ = g.AddEdge("join", compose.END)
	for _, n := range branchNames {
		v := visit(n)
		_ = g.AddLambdaNode(n, compose.InvokableLambda(func(ctx context.Context, s *state) (*state, error) { return v(ctx, s.Clone()) }))
		_ = g.AddEdge("split", n)
		_ = g.AddEdge(n, "join")
	}
	r, err := g.Compile(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	return r
}

// BenchmarkFanOut10 runs ten parallel branches from one node and merges
// them at a join: the framework (with the field reducers), bare eino and
// plain Go.
func BenchmarkFanOut10(b *testing.B) {
	invoke := func(b *testing.B, fn func(context.Context, *state) (*state, error)) {
		measure(b, func() error {
			out, err := fn(context.Background(), &state{})
			if err == nil && len(out.Path) != 12 {
				err = fmt.Errorf("path %v", out.Path)
			}
			return err
		})
	}
	b.Run("framework", func(b *testing.B) {
		r, err := fanOutGraph().Compile(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		invoke(b, func(ctx context.Context, s *state) (*state, error) { return r.Invoke(ctx, s) })
	})
	b.Run("unfused", func(b *testing.B) {
		r, err := fanOutGraph().Compile(context.Background(), WithoutFusion())
		if err != nil {
			b.Fatal(err)
		}
		invoke(b, func(ctx context.Context, s *state) (*state, error) { return r.Invoke(ctx, s) })
	})
	b.Run("eino", func(b *testing.B) {
		r := einoFanOut(b)
		invoke(b, func(ctx context.Context, s *state) (*state, error) { return r.Invoke(ctx, s) })
	})
	b.Run("go", func(b *testing.B) { invoke(b, goFanOut) })
}
