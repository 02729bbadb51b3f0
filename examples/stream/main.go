// Command stream prints the events of one run in each stream mode: values
// (the state after each step), updates (a node and the fields it changed),
// messages (model output as a node writes it), custom (anything a node
// writes) and debug (node start and end, with the attempt). The "answer"
// node is a subgraph, so its events carry the path "answer/write".
//
// Run it with `go run ./examples/stream`; it prints output.txt.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/sgrgraph/sgrgraph/graph"
)

// Turn is the graph's state.
type Turn struct {
	Question string `json:"question"`
	Topic    string `json:"topic,omitempty"`
	Answer   string `json:"answer,omitempty"`
}

func route(_ context.Context, t *Turn) (*Turn, error) {
	t.Topic = "greeting"
	return t, nil
}

// write streams its answer word by word, as a model would, and reports its
// progress on the custom stream.
func write(ctx context.Context, t *Turn) (*Turn, error) {
	for _, w := range []string{"Hello", ", ", "world"} {
		graph.EmitMessage(ctx, w)
		t.Answer += w
	}
	graph.Emit(ctx, map[string]int{"words": 2})
	return t, nil
}

func build(ctx context.Context) (*graph.Runnable[*Turn], error) {
	answer, err := graph.New[*Turn]("answer").
		AddNode("write", write).
		AddEdge(graph.START, "write").AddEdge("write", graph.END).
		Compile(ctx)
	if err != nil {
		return nil, err
	}
	return graph.New[*Turn]("stream").
		AddNode("route", route).
		AddNode("answer", graph.Subgraph(answer)).
		AddEdge(graph.START, "route").AddEdge("route", "answer").AddEdge("answer", graph.END).
		Compile(ctx)
}

func run(ctx context.Context, w io.Writer) error {
	r, err := build(ctx)
	if err != nil {
		return err
	}
	for _, mode := range []graph.StreamMode{graph.StreamValues, graph.StreamUpdates, graph.StreamMessages, graph.StreamCustom, graph.StreamDebug} {
		fmt.Fprintf(w, "== %s\n", mode)
		for c, err := range r.Stream(ctx, &Turn{Question: "hi"}, graph.WithStreamModes(mode)) {
			if err != nil {
				return err
			}
			fmt.Fprintln(w, line(c))
		}
	}
	return nil
}

// line shows one event; debug durations vary, so they are left out.
func line(c graph.Chunk[*Turn]) string {
	at := c.Path
	if at == "" {
		at = "(graph)"
	}
	var what any
	switch c.Mode {
	case graph.StreamValues, graph.StreamEnd:
		what = c.State
	case graph.StreamUpdates:
		what = c.Update
	case graph.StreamMessages:
		what = c.Message
	case graph.StreamCustom:
		what = c.Custom
	case graph.StreamDebug:
		what = fmt.Sprintf("%s, attempt %d", c.Debug.Event, c.Debug.Attempt)
	}
	data, _ := json.Marshal(what)
	return strings.Join([]string{string(c.Mode), at, string(data)}, "\t")
}

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
