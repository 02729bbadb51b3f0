// Command memory shows long-term memory: a user states a preference in one
// thread, and the assistant uses it in another thread after the program
// has closed its stores and opened them again, as a new process would. The
// threads are gone with the process; the memory, in a SQLite file, is not.
//
// Nodes reach the store through the run's context value (graph.WithContext,
// read with graph.ContextOf), beside the user it belongs to, so one
// compiled graph serves every user. The assistant is offline: it keeps a
// message that starts with "Remember:" and answers other messages with the
// preferences whose words they share.
//
// Run it with `go run ./examples/memory`; it prints output.txt.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/graph"
	"github.com/sgrgraph/sgrgraph/memory"
	"github.com/sgrgraph/sgrgraph/memory/sqlite"
)

// Turn is the graph's state: one message and what the assistant did.
type Turn struct {
	Message  string
	Recalled []string
	Reply    string
}

// User is the run's context value: who is talking, and the memory.
type User struct {
	ID     string
	Memory memory.Store
}

// preferences is the namespace of a user's preferences.
func preferences(user string) []string { return []string{"users", user, "preferences"} }

// recall looks for the user's preferences that share words with the message.
func recall(ctx context.Context, t *Turn) (*Turn, error) {
	u, ok := graph.ContextOf[User](ctx)
	if !ok {
		return nil, errors.New("recall: the run has no User")
	}
	items, err := u.Memory.Search(ctx, memory.Query{Prefix: preferences(u.ID), Text: t.Message, Limit: 3})
	if err != nil {
		return nil, err
	}
	for _, it := range items {
		var p struct{ Text string }
		if err := json.Unmarshal(it.Value, &p); err != nil {
			return nil, err
		}
		t.Recalled = append(t.Recalled, fmt.Sprintf("%s (score %.2f)", p.Text, it.Score))
	}
	return t, nil
}

// respond keeps a preference, or answers with the ones recalled.
func respond(ctx context.Context, t *Turn) (*Turn, error) {
	u, _ := graph.ContextOf[User](ctx) // recall has checked it
	if text, ok := strings.CutPrefix(t.Message, "Remember:"); ok {
		text = strings.TrimSpace(text)
		value, _ := json.Marshal(map[string]string{"text": text})
		if _, err := u.Memory.Put(ctx, preferences(u.ID), slug(text), value, 0); err != nil {
			return nil, err
		}
		t.Reply = "Noted: " + text
		return t, nil
	}
	if len(t.Recalled) == 0 {
		t.Reply = "I don't know your preferences yet."
		return t, nil
	}
	t.Reply = "You told me: " + strings.Join(t.Recalled, "; ")
	return t, nil
}

// slug makes a key of a sentence: the same sentence, the same item.
func slug(text string) string {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return r == ' ' || r == '.' || r == ',' })
	return strings.Join(words, "-")
}

// open is what a process does first: open the memory file, compile the graph.
func open(ctx context.Context, path string) (*graph.Runnable[*Turn], memory.Store, error) {
	store, err := sqlite.Open(path)
	if err != nil {
		return nil, nil, err
	}
	r, err := graph.New[*Turn]("assistant").
		AddNode("recall", recall).AddNode("respond", respond).
		AddEdge(graph.START, "recall").AddEdge("recall", "respond").AddEdge("respond", graph.END).
		Compile(ctx, graph.WithCheckpointer(checkpoint.NewMemory())) // threads live as long as the process
	if err != nil {
		store.Close()
		return nil, nil, err
	}
	return r, store, nil
}

// say runs one turn of user on thread and prints it.
func say(ctx context.Context, w io.Writer, r *graph.Runnable[*Turn], store memory.Store, thread, user, message string) error {
	out, err := r.Invoke(ctx, &Turn{Message: message}, graph.WithThread(thread), graph.WithContext(User{ID: user, Memory: store}))
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%-7s %s: %s\n%-7s bot: %s\n", thread, user, message, thread, out.Reply)
	return nil
}

func run(ctx context.Context, w io.Writer) error {
	dir, err := os.MkdirTemp("", "memory-example")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "memory.db")

	r, store, err := open(ctx, path)
	if err != nil {
		return err
	}
	if err := say(ctx, w, r, store, "monday", "ann", "Remember: I drink green tea without sugar."); err != nil {
		return err
	}
	if err := say(ctx, w, r, store, "tuesday", "bob", "What should I drink?"); err != nil {
		return err
	}
	store.Close()
	fmt.Fprintln(w, "(the program closes its stores and opens them again)")

	r, store, err = open(ctx, path)
	if err != nil {
		return err
	}
	defer store.Close()
	if _, err := r.State(ctx, "monday"); errors.Is(err, checkpoint.ErrNotFound) {
		fmt.Fprintln(w, "thread monday is gone with the process")
	} else if err != nil {
		return err
	}
	if err := say(ctx, w, r, store, "friday", "ann", "What should I drink this morning?"); err != nil {
		return err
	}
	spaces, err := store.List(ctx, memory.ListOptions{})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "memory holds %q\n", spaces)
	return nil
}

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
