// Command outside is a program in a module of its own that uses sgrgraph as
// a dependency, as your program would: its go.mod requires
// github.com/sgrgraph/sgrgraph and replaces it with this checkout (../..),
// since the module is not on a public proxy. See
// docs/use-from-your-module.md.
//
// It routes support tickets: "classify" reads the ticket, a conditional
// edge sends it to "billing" or "tech", and each ticket's run is kept in a
// thread of an in-memory checkpointer, read back afterwards.
//
// Run it with `go run .` in examples/outside; it prints output.txt.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/graph"
)

// Ticket is the graph's state. A checkpointer stores it as JSON.
type Ticket struct {
	Text     string   `json:"text"`
	Category string   `json:"category"`
	Reply    string   `json:"reply"`
	Log      []string `json:"log"`
}

func run(ctx context.Context, w io.Writer) error {
	classify := func(_ context.Context, t *Ticket) (*Ticket, error) {
		t.Category = "tech"
		if strings.Contains(strings.ToLower(t.Text), "invoice") {
			t.Category = "billing"
		}
		t.Log = append(t.Log, "classify: "+t.Category)
		return t, nil
	}
	reply := func(text string) graph.NodeFunc[*Ticket] {
		return func(_ context.Context, t *Ticket) (*Ticket, error) {
			t.Reply = text
			t.Log = append(t.Log, t.Category+": replied")
			return t, nil
		}
	}
	category := func(_ context.Context, t *Ticket) (string, error) { return t.Category, nil }

	store := checkpoint.NewMemory() // or checkpoint/sqlite, checkpoint/postgres, checkpoint/redis
	defer store.Close()
	r, err := graph.New[*Ticket]("support").
		AddNode("classify", classify).
		AddNode("billing", reply("A refund for the duplicate charge is on its way.")).
		AddNode("tech", reply("Restart the export service, then retry.")).
		AddEdge(graph.START, "classify").
		AddConditionalEdges("classify", graph.ByFunc(category), map[string]string{"billing": "billing", "tech": "tech"}).
		AddEdge("billing", graph.END).
		AddEdge("tech", graph.END).
		Compile(ctx, graph.WithCheckpointer(store))
	if err != nil {
		return err
	}
	for _, tk := range []struct{ thread, text string }{
		{"ticket-1", "I was charged twice for one invoice"},
		{"ticket-2", "The export crashes on start"},
	} {
		out, err := r.Invoke(ctx, &Ticket{Text: tk.text}, graph.WithThread(tk.thread))
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s: %s → %s: %s\n", tk.thread, tk.text, out.Category, out.Reply)
	}

	// The checkpointer kept each run: read the first ticket's thread back.
	snap, err := r.State(ctx, "ticket-1")
	if err != nil {
		return err
	}
	history, err := r.History(ctx, "ticket-1")
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "thread ticket-1: %d checkpoints; its state's log: %s\n", len(history), strings.Join(snap.State.Log, "; "))
	return verbs(ctx, w)
}

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
