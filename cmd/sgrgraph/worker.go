package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/runs"
)

// workerGrace bounds how long a stopping worker lets the turns in hand
// finish; a turn cut then runs again on another worker.
const workerGrace = 30 * time.Second

func newWorkerCmd(a *app) *cobra.Command {
	var f turnFlags
	var queue, name string
	var concurrency int
	var turnTimeout time.Duration
	cmd := &cobra.Command{
		Use:   "worker --queue redis://HOST:PORT",
		Short: "Run queued turns (POST /v1/runs, batch --queue) from a Redis queue, on this machine",
		Long: `worker takes turns from the Redis queue that serve --queue and batch --queue fill, runs
them with this machine's configuration, and records each result and its events in the
queue. Start as many workers as you like, on any machine that reaches the Redis.

A worker renews its claim on a turn while it runs; if the worker dies, another takes the
turn over after 30 s and runs it from the start. A turn a worker finished is never run
again. On SIGINT or SIGTERM a worker takes no more turns and finishes those in hand
(up to 30 s). Workers that continue sessions need the store the servers use (--store
postgres://... or redis://...).`,
		Example: "  sgrgraph worker --queue redis://127.0.0.1:6379/0 --concurrency 8",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if queue == "" {
				return fmt.Errorf("--queue: required: the Redis of the runs, redis://HOST:PORT/DB")
			}
			if concurrency < 1 || concurrency > 256 {
				return fmt.Errorf("--concurrency: %d is outside 1..256", concurrency)
			}
			if turnTimeout <= 0 {
				return fmt.Errorf("--turn-timeout: %s is not above 0", turnTimeout)
			}
			hosts, err := runs.NewWebhookHosts(a.cfg.Serve.WebhookHosts)
			if err != nil {
				return fmt.Errorf("serve.webhook_hosts: %w", err)
			}
			q, err := runs.Open(cmd.Context(), queue, runs.Options{})
			if err != nil {
				return fmt.Errorf("--queue: %w", err)
			}
			defer q.Close()
			f.keepThreads = true
			ag, done, err := f.build(cmd, a)
			if err != nil {
				return err
			}
			defer done()
			w := runs.Worker{Queue: q, Handler: ag, Name: name, Concurrency: concurrency, TurnTimeout: turnTimeout,
				Grace: workerGrace, Log: a.log, Webhooks: runs.Webhooks{Hosts: hosts}}
			if ag.Store() != nil {
				// Runs that name an assistant (POST /v1/runs' assistant) run
				// its version, read from the store the servers keep it in.
				assistants, err := agent.NewAssistants(agent.AssistantsOptions{Base: a.cfg, Agent: agent.Options{Store: ag.Store()}})
				if err != nil {
					return err
				}
				defer assistants.Close()
				w.Assistants = assistants
			}
			fmt.Fprintf(a.out, "working on %s\n", queue)
			return w.Work(cmd.Context())
		},
	}
	f.registerKB(cmd)
	f.registerModel(cmd)
	fl := cmd.Flags()
	fl.StringVar(&queue, "queue", "", "the Redis of the runs: redis://[user:password@]HOST:PORT/DB or rediss://")
	fl.StringVar(&f.store, "store", "", "where threads are kept: postgres://..., redis://... or a SQLite file (default: threads.store, else threads.db in the user cache dir)")
	fl.IntVar(&concurrency, "concurrency", 4, "turns run at once, 1..256")
	fl.StringVar(&name, "name", "", "the worker's name among the queue's workers (default: host, pid and a random part)")
	fl.DurationVar(&turnTimeout, "turn-timeout", 5*time.Minute, "longest a turn may take")
	return cmd
}
