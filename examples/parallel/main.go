// Command parallel runs three branches at once: START → split → {weather,
// news, stocks} → join → END. Each branch sleeps 200 ms, so the run takes
// about 200 ms, not 600. The branches' results are merged by the field
// reducers the state's tags name: Lines are appended in edge order, Calls
// summed, Slowest kept at its maximum.
//
// Run it with `go run ./examples/parallel`; it prints output.txt, whose
// last line says whether the run took under 400 ms (the measured time goes
// to standard error, so every run prints the same).
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/sgrgraph/sgrgraph/graph"
)

// Report is the graph's state.
type Report struct {
	Lines   []string `reduce:"append"`
	Calls   int      `reduce:"sum"`
	Slowest int      `reduce:"max"` // milliseconds
}

// Clone gives each branch its own copy.
func (r *Report) Clone() *Report {
	c := *r
	c.Lines = slices.Clone(r.Lines)
	return &c
}

func fetch(source, result string, sleep time.Duration) graph.NodeFunc[*Report] {
	return func(ctx context.Context, r *Report) (*Report, error) {
		select {
		case <-time.After(sleep):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		r.Lines = append(r.Lines, source+": "+result)
		r.Calls++
		r.Slowest = max(r.Slowest, int(sleep/time.Millisecond))
		return r, nil
	}
}

func note(line string) graph.NodeFunc[*Report] {
	return func(_ context.Context, r *Report) (*Report, error) {
		r.Lines = append(r.Lines, line)
		return r, nil
	}
}

func build(ctx context.Context, sleep time.Duration) (*graph.Runnable[*Report], error) {
	return graph.New[*Report]("parallel").
		AddNode("split", note("split: asking three sources")).
		AddNode("weather", fetch("weather", "sunny, 21 °C", sleep)).
		AddNode("news", fetch("news", "markets calm", sleep)).
		AddNode("stocks", fetch("stocks", "ACME +2%", sleep)).
		AddNode("join", note("join: all three answered")).
		AddEdge(graph.START, "split").
		AddEdge("split", "weather").AddEdge("split", "news").AddEdge("split", "stocks").
		AddEdge("weather", "join").AddEdge("news", "join").AddEdge("stocks", "join").
		AddEdge("join", graph.END).
		Compile(ctx)
}

// result is what a run computed, without its timing.
func result(r *Report) string {
	s := ""
	for _, l := range r.Lines {
		s += l + "\n"
	}
	return s + fmt.Sprintf("merged: %d lines, %d calls, slowest %d ms\n", len(r.Lines), r.Calls, r.Slowest)
}

func run(ctx context.Context, w, timing io.Writer) error {
	r, err := build(ctx, 200*time.Millisecond)
	if err != nil {
		return err
	}
	start := time.Now()
	out, err := r.Invoke(ctx, &Report{})
	if err != nil {
		return err
	}
	took := time.Since(start)
	fmt.Fprint(w, result(out))
	verdict := "under 400 ms"
	if took >= 400*time.Millisecond {
		verdict = "400 ms or more: the branches did not run in parallel"
	}
	fmt.Fprintf(w, "wall time: %s\n", verdict)
	fmt.Fprintf(timing, "wall time: %d ms for three 200 ms branches\n", took.Milliseconds())
	return nil
}

func main() {
	if err := run(context.Background(), os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
