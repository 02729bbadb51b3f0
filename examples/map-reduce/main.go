// Command map-reduce sends one node several times, each with a state of its
// own (LangGraph's Send), and reduces the results at a join: split sends
// "count" once per document, the counts run in parallel, and their word
// counts are summed and their findings appended in Send order.
//
// Run it with `go run ./examples/map-reduce`; it prints output.txt.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/sgrgraph/sgrgraph/graph"
)

// Job is the graph's state. Doc is the one document a count works on.
type Job struct {
	Docs     []string
	Doc      string
	Words    int      `reduce:"sum"`
	Findings []string `reduce:"append"`
	Summary  string
}

// Clone gives each Send its own copy.
func (j *Job) Clone() *Job {
	c := *j
	c.Docs, c.Findings = slices.Clone(j.Docs), slices.Clone(j.Findings)
	return &c
}

// perDocument sends "count" once per document.
func perDocument(_ context.Context, j *Job) ([]graph.Send[*Job], error) {
	sends := make([]graph.Send[*Job], len(j.Docs))
	for i, d := range j.Docs {
		sends[i] = graph.Send[*Job]{Key: "count", State: &Job{Doc: d}}
	}
	return sends, nil
}

func count(_ context.Context, j *Job) (*Job, error) {
	n := len(strings.Fields(j.Doc))
	j.Words += n
	j.Findings = append(j.Findings, fmt.Sprintf("%q has %d words", j.Doc, n))
	return j, nil
}

func summarise(_ context.Context, j *Job) (*Job, error) {
	j.Summary = fmt.Sprintf("%d documents, %d words", len(j.Findings), j.Words)
	return j, nil
}

func build(ctx context.Context) (*graph.Runnable[*Job], error) {
	noop := func(_ context.Context, j *Job) (*Job, error) { return j, nil }
	return graph.New[*Job]("map-reduce").
		AddNode("split", noop).
		AddNode("count", count).
		AddNode("summarise", summarise).
		AddEdge(graph.START, "split").
		AddConditionalEdges("split", graph.BySend(perDocument), map[string]string{"count": "count"}).
		AddEdge("count", "summarise").
		AddEdge("summarise", graph.END).
		Compile(ctx)
}

func run(ctx context.Context, w io.Writer) error {
	r, err := build(ctx)
	if err != nil {
		return err
	}
	out, err := r.Invoke(ctx, &Job{Docs: []string{
		"the guard reads every message",
		"tables decide",
		"one forced tool call plans the answer",
		"evidence first",
	}})
	if err != nil {
		return err
	}
	for _, f := range out.Findings {
		fmt.Fprintln(w, f)
	}
	fmt.Fprintln(w, out.Summary)
	return nil
}

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
