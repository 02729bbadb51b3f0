// Command queue shows turns queued in Redis for workers: it starts a
// worker of the default agent (offline) in this process, queues two turns
// as a server's POST /v1/runs would, follows the first one's events as a
// client streaming GET /v1/runs/{id}/events would, and waits for both.
// Workers on other machines take runs from the same Redis in the same way.
//
// Run it with a Redis at hand: `SGRGRAPH_QUEUE=redis://127.0.0.1:6379/0 go
// run ./examples/queue`; it prints output.txt.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/runs"
)

func main() {
	url := os.Getenv("SGRGRAPH_QUEUE")
	if url == "" {
		url = "redis://127.0.0.1:6379/0"
	}
	if err := run(context.Background(), os.Stdout, url); err != nil {
		fmt.Fprintln(os.Stderr, "queue:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, w io.Writer, url string) error {
	// A prefix of its own keeps the example's runs apart from any others.
	q, err := runs.Open(ctx, url, runs.Options{Prefix: fmt.Sprintf("example:%d:", time.Now().UnixNano())})
	if err != nil {
		return err
	}
	defer q.Close()
	cfg := config.Default()
	cache, err := os.MkdirTemp("", "queue-example")
	if err != nil {
		return err
	}
	defer os.RemoveAll(cache)
	cfg.KB.CacheDir = cache
	a, err := agent.New(ctx, cfg, agent.Options{})
	if err != nil {
		return err
	}
	defer a.Close()

	// The worker: here a goroutine, anywhere in production (sgrgraph worker).
	wctx, stop := context.WithCancel(ctx)
	worked := make(chan error, 1)
	go func() { worked <- runs.Worker{Queue: q, Handler: a, Concurrency: 2}.Work(wctx) }()
	defer func() { stop(); <-worked }()

	// The client side: queue two turns, each under an id of its own.
	questions := map[string]string{"run-1": "How do I configure the safety guard?", "run-2": "Buy cheap watches at http://example.com/deal"}
	for _, id := range []string{"run-1", "run-2"} {
		r, err := q.Submit(ctx, "me", id, runs.Spec{Message: questions[id], SessionID: id, Number: 1})
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s: %s\n", r.ID, r.Status)
	}

	// Follow run-1's events as they come, until its result.
	for after, done := "", false; !done; {
		evs, err := q.Events(ctx, "me", "run-1", after, 5*time.Second)
		if err != nil {
			return err
		}
		for _, ev := range evs {
			after, done = ev.ID, ev.Last()
			switch ev.Kind {
			case "started", "result":
				fmt.Fprintf(w, "run-1 event: %s\n", ev.Kind)
			case string(contracts.EventVerdict):
				var e contracts.Event
				if err := json.Unmarshal(ev.Data, &e); err != nil {
					return err
				}
				fmt.Fprintf(w, "run-1 event: verdict %s\n", e.Verdict.Verdict)
			}
		}
	}
	for _, id := range []string{"run-1", "run-2"} {
		r, err := q.Wait(ctx, "me", id)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s: %s after %d attempt, action %s: %s\n", id, r.Status, r.Attempts, r.Result.Action, firstLine(r.Result.Answer))
	}
	return nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
