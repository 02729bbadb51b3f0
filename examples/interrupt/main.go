// Command interrupt shows a person in the loop: a graph drafts a reply,
// pauses at "review" for a person to approve, edit or reject it, and goes
// on when resumed. The pause is durable: the run is checkpointed in a
// SQLite file, this program closes it and opens it again (as a new process
// would), reads the waiting question, and resumes with an edited draft.
//
// Run it with `go run ./examples/interrupt`; it prints output.txt.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/sgrgraph/sgrgraph/checkpoint/sqlite"
	"github.com/sgrgraph/sgrgraph/graph"
)

// Reply is the graph's state.
type Reply struct {
	Question string
	Draft    string
	Final    string
	Log      []string
}

// Review is what the person answers: approve the draft as it is, replace
// it with an edit, or reject it.
type Review struct {
	Approve bool   `json:"approve,omitempty"`
	Edit    string `json:"edit,omitempty"`
	Reject  bool   `json:"reject,omitempty"`
}

func draft(_ context.Context, r *Reply) (*Reply, error) {
	r.Draft = "Restart the service."
	r.Log = append(r.Log, "draft: "+r.Draft)
	return r, nil
}

// review asks the person. When the run is resumed the node runs again from
// its start and Interrupt returns the answer, so nothing before it may
// have side effects.
func review(ctx context.Context, r *Reply) (*Reply, error) {
	answer, err := graph.Interrupt[Review](ctx, map[string]string{"question": r.Question, "draft": r.Draft})
	if err != nil {
		return nil, err
	}
	switch {
	case answer.Reject:
		r.Final = "(no reply: the reviewer rejected the draft)"
	case answer.Edit != "":
		r.Final = answer.Edit
	default:
		r.Final = r.Draft
	}
	r.Log = append(r.Log, "review: "+r.Final)
	return r, nil
}

func send(_ context.Context, r *Reply) (*Reply, error) {
	r.Log = append(r.Log, "sent")
	return r, nil
}

func compile(ctx context.Context, path string) (*graph.Runnable[*Reply], io.Closer, error) {
	store, err := sqlite.Open(path)
	if err != nil {
		return nil, nil, err
	}
	r, err := graph.New[*Reply]("reply").
		AddNode("draft", draft).AddNode("review", review).AddNode("send", send).
		AddEdge(graph.START, "draft").AddEdge("draft", "review").AddEdge("review", "send").AddEdge("send", graph.END).
		Compile(ctx, graph.WithCheckpointer(store))
	if err != nil {
		store.Close()
		return nil, nil, err
	}
	return r, store, nil
}

func run(ctx context.Context, w io.Writer) error {
	dir, err := os.MkdirTemp("", "interrupt-example")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "threads.db")

	// The first process: the run pauses at review.
	r, store, err := compile(ctx, path)
	if err != nil {
		return err
	}
	_, err = r.Invoke(ctx, &Reply{Question: "The export hangs. What now?"}, graph.WithThread("ticket-7"))
	var paused *graph.InterruptError
	if !errors.As(err, &paused) {
		return fmt.Errorf("expected a pause, got %w", err)
	}
	fmt.Fprintf(w, "paused at %s: %s\n", paused.Pending().Node, paused.Pending().Payload)
	store.Close()

	// A later process: the thread waits in the file.
	r, store, err = compile(ctx, path)
	if err != nil {
		return err
	}
	defer store.Close()
	snap, err := r.State(ctx, "ticket-7")
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "thread ticket-7 waits before %v with the draft %q\n", snap.Next, snap.State.Draft)
	out, err := r.Resume(ctx, "ticket-7", Review{Edit: "Restart the export service, then retry the export."})
	if err != nil {
		return err
	}
	for _, line := range out.Log {
		fmt.Fprintln(w, line)
	}
	history, err := r.History(ctx, "ticket-7")
	if err != nil {
		return err
	}
	drafts := 0
	for _, line := range out.Log {
		if strings.HasPrefix(line, "draft:") {
			drafts++
		}
	}
	fmt.Fprintf(w, "%d checkpoints; draft ran %d time(s)\n", len(history), drafts)
	return nil
}

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
