// Command queue shows turns queued in Redis for workers: it starts a
// worker of the default agent (offline) in this process, queues two turns
// as a server's POST /v1/runs would, follows the first one's events as a
// client streaming GET /v1/runs/{id}/events would, and waits for both.
// Workers on other machines take runs from the same Redis in the same way.
//
// Run it with `go run ./examples/queue`: it starts a redis-server of its
// own (the distribution's package) on a socket in a temporary directory,
// or uses the Redis that SGRGRAPH_QUEUE names (redis://HOST:PORT/DB). It
// prints output.txt.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/runs"
)

func main() {
	url, stop, err := redisURL()
	if err != nil {
		fmt.Fprintln(os.Stderr, "queue:", err)
		os.Exit(1)
	}
	err = run(context.Background(), os.Stdout, url)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "queue:", err)
		os.Exit(1)
	}
}

// redisURL is SGRGRAPH_QUEUE, or a redis-server started for the example,
// which stop ends.
func redisURL() (url string, stop func(), err error) {
	if url := os.Getenv("SGRGRAPH_QUEUE"); url != "" {
		return url, func() {}, nil
	}
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		return "", nil, errors.New("no Redis: set SGRGRAPH_QUEUE=redis://HOST:PORT/DB, or install redis-server (apt-get install redis-server)")
	}
	dir, err := os.MkdirTemp("", "queue-example-redis")
	if err != nil {
		return "", nil, err
	}
	sock := filepath.Join(dir, "redis.sock")
	cmd := exec.Command(bin, "--port", "0", "--unixsocket", sock, "--save", "", "--appendonly", "no", "--dir", dir)
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return "", nil, err
	}
	stop = func() { _ = cmd.Process.Kill(); _ = cmd.Wait(); os.RemoveAll(dir) }
	for range 100 { // up to 5 s for the socket to appear
		if _, err := os.Stat(sock); err == nil {
			return "unix://" + sock, stop, nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	stop()
	return "", nil, errors.New("redis-server did not open its socket within 5 s")
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
