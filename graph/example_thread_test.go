package graph_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/graph"
)

// Ticket is the state of the thread examples: Log is appended to by the
// nodes, and by an input or an update, through its reducer.
type Ticket struct {
	Question string
	Reply    string
	Log      []string `reduce:"append"`
}

// ticketDesk drafts a reply, asks a person to approve it, and sends it.
func ticketDesk(store checkpoint.Store) *graph.Runnable[*Ticket] {
	draft := func(_ context.Context, t *Ticket) (*Ticket, error) {
		t.Reply = "Try again later."
		t.Log = append(t.Log, "draft")
		return t, nil
	}
	review := func(ctx context.Context, t *Ticket) (*Ticket, error) {
		ok, err := graph.Interrupt[bool](ctx, "send "+t.Reply+"?")
		if err != nil {
			return nil, err
		}
		t.Log = append(t.Log, fmt.Sprint("approved: ", ok))
		return t, nil
	}
	send := func(_ context.Context, t *Ticket) (*Ticket, error) {
		t.Log = append(t.Log, "sent: "+t.Reply)
		return t, nil
	}
	r, err := graph.New[*Ticket]("desk").
		AddNode("draft", draft).AddNode("review", review).AddNode("send", send).
		AddEdge(graph.START, "draft").AddEdge("draft", "review").AddEdge("review", "send").AddEdge("send", graph.END).
		Compile(context.Background(), graph.WithCheckpointer(store))
	if err != nil {
		panic(err)
	}
	return r
}

// A person edits the state of a paused thread instead of answering: the
// edit counts as the review's output, so the run goes on to send it.
func ExampleRunnable_UpdateState() {
	ctx := context.Background()
	r := ticketDesk(checkpoint.NewMemory())
	_, err := r.Invoke(ctx, &Ticket{Question: "The export hangs."}, graph.WithThread("t-1"))
	fmt.Println("paused:", graph.IsInterrupt(err))

	_, err = r.UpdateState(ctx, &Ticket{Reply: "Restart the export service."},
		graph.WithThread("t-1"), graph.AsNode("review"))
	if err != nil {
		panic(err)
	}
	snap, err := r.State(ctx, "t-1")
	if err != nil {
		panic(err)
	}
	fmt.Println("next:", snap.Next, "source:", snap.Metadata.Source)

	out, err := r.Invoke(ctx, nil, graph.WithThread("t-1")) // the zero input goes on from the edit
	if err != nil {
		panic(err)
	}
	fmt.Println(out.Log)
	// Output:
	// paused: true
	// next: [send] source: update
	// [draft sent: Restart the export service.]
}

// Time travel: an edit of an earlier checkpoint forks the thread there. The
// run goes on from the edit; the old branch stays in the history, and the
// edit's Parent names the checkpoint it forked from.
func ExampleFromCheckpoint() {
	ctx := context.Background()
	r := ticketDesk(checkpoint.NewMemory())
	_, err := r.Invoke(ctx, &Ticket{Question: "The export hangs."}, graph.WithThread("t-2"))
	fmt.Println("paused:", graph.IsInterrupt(err))
	if _, err := r.Resume(ctx, "t-2", true); err != nil {
		panic(err)
	}
	history, err := r.History(ctx, "t-2")
	if err != nil {
		panic(err)
	}
	beforeSend := history[1] // newest first: the end, then the checkpoint before send

	edit, err := r.UpdateState(ctx, &Ticket{Reply: "Restart the export service."},
		graph.WithThread("t-2"), graph.FromCheckpoint(beforeSend.ID))
	if err != nil {
		panic(err)
	}
	out, err := r.Invoke(ctx, nil, graph.WithThread("t-2"))
	if err != nil {
		panic(err)
	}
	fmt.Println(out.Log)
	forked, err := r.History(ctx, "t-2")
	if err != nil {
		panic(err)
	}
	fmt.Println("edit forks from the checkpoint before send:", forked[1].ID == edit && forked[1].Parent == beforeSend.ID)
	fmt.Println("old end kept:", forked[2].State.Log)
	// Output:
	// paused: true
	// [draft approved: true sent: Restart the export service.]
	// edit forks from the checkpoint before send: true
	// old end kept: [draft approved: true sent: Try again later.]
}

// A thread that waits for an answer refuses a new input, naming the
// interrupt; ReplacePending drops the question and runs the input, merged
// into the thread's state (Log's reducer appends).
func ExampleReplacePending() {
	ctx := context.Background()
	r := ticketDesk(checkpoint.NewMemory())
	_, err := r.Invoke(ctx, &Ticket{Question: "The export hangs."}, graph.WithThread("t-3"))
	fmt.Println("paused:", graph.IsInterrupt(err))

	_, err = r.Invoke(ctx, &Ticket{Question: "And the import?"}, graph.WithThread("t-3"))
	fmt.Println("refused:", errors.Is(err, graph.ErrPending))

	_, err = r.Invoke(ctx, &Ticket{Question: "And the import?"}, graph.WithThread("t-3"), graph.ReplacePending())
	fmt.Println("paused again:", graph.IsInterrupt(err))
	snap, err := r.State(ctx, "t-3")
	if err != nil {
		panic(err)
	}
	fmt.Println(snap.State.Question, snap.State.Log)
	// Output:
	// paused: true
	// refused: true
	// paused again: true
	// And the import? [draft draft]
}

// Review is the state of the parallel example: two people review a post
// in parallel branches.
type Review struct {
	Post  string
	Notes []string `reduce:"append"`
}

func reviewer(name string) graph.NodeFunc[*Review] {
	return func(ctx context.Context, r *Review) (*Review, error) {
		note, err := graph.Interrupt[string](ctx, name+": any note on "+r.Post+"?")
		if err != nil {
			return nil, err
		}
		r.Notes = append(r.Notes, name+": "+note)
		return r, nil
	}
}

// Nodes of parallel branches may each ask: the run pauses once, with an
// interrupt per branch, and Resume answers them by ID.
func ExampleRunnable_Resume_parallelBranches() {
	ctx := context.Background()
	publish := func(_ context.Context, r *Review) (*Review, error) {
		r.Notes = append(r.Notes, "published")
		return r, nil
	}
	r, err := graph.New[*Review]("review").
		AddNode("post", func(_ context.Context, r *Review) (*Review, error) { return r, nil }).
		AddNode("legal", reviewer("legal")).AddNode("tone", reviewer("tone")).AddNode("publish", publish).
		AddEdge(graph.START, "post").AddEdge("post", "legal").AddEdge("post", "tone").
		AddEdge("legal", "publish").AddEdge("tone", "publish").AddEdge("publish", graph.END).
		Compile(ctx, graph.WithCheckpointer(checkpoint.NewMemory()))
	if err != nil {
		panic(err)
	}
	_, err = r.Invoke(ctx, &Review{Post: "the launch"}, graph.WithThread("p-1"))
	var paused *graph.InterruptError
	if !errors.As(err, &paused) {
		panic(err)
	}
	answers := map[string]any{}
	for _, in := range paused.Waiting() {
		fmt.Println(in.Node, "asks", string(in.Payload))
		answers[in.ID] = "fine"
	}
	out, err := r.Resume(ctx, "p-1", answers)
	if err != nil {
		panic(err)
	}
	fmt.Println(out.Notes)
	// Output:
	// legal asks "legal: any note on the launch?"
	// tone asks "tone: any note on the launch?"
	// [legal: fine tone: fine published]
}

// A thread paused inside a subgraph: WithSubgraphs gives the graph's own
// snapshot (the subgraph node next, on the state it started on) and the
// subgraph's, with its namespace.
func ExampleWithSubgraphs() {
	ctx := context.Background()
	store := checkpoint.NewMemory()
	inner := ticketDesk(store) // a subgraph writes into the running thread: compile it with the store too
	r, err := graph.New[*Ticket]("support").
		AddNode("triage", func(_ context.Context, t *Ticket) (*Ticket, error) {
			t.Log = append(t.Log, "triage")
			return t, nil
		}).
		AddNode("desk", graph.Subgraph(inner)).
		AddEdge(graph.START, "triage").AddEdge("triage", "desk").AddEdge("desk", graph.END).
		Compile(ctx, graph.WithCheckpointer(store))
	if err != nil {
		panic(err)
	}
	_, err = r.Invoke(ctx, &Ticket{Question: "The export hangs."}, graph.WithThread("s-1"))
	fmt.Println("paused:", graph.IsInterrupt(err))

	snap, err := r.State(ctx, "s-1", graph.WithSubgraphs())
	if err != nil {
		panic(err)
	}
	fmt.Printf("%q next %v %v\n", snap.Namespace, snap.Next, snap.State.Log)
	for _, sub := range snap.Subgraphs {
		fmt.Printf("%q next %v %v\n", sub.Namespace, sub.Next, sub.State.Log)
	}
	// Output:
	// paused: true
	// "" next [desk] [triage]
	// "desk" next [review] [triage draft]
}
