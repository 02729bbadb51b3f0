package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/rs/zerolog"
	"github.com/spf13/cobra"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/mcpserver"
	"github.com/sgrgraph/sgrgraph/runs"
	"github.com/sgrgraph/sgrgraph/server"
	"github.com/sgrgraph/sgrgraph/studio"
	"github.com/sgrgraph/sgrgraph/webui"
)

// shutdownGrace bounds how long serve waits for turns in flight after a
// signal before it drops their connections.
const shutdownGrace = 30 * time.Second

// serveFlags are serve's own flags, beside the knowledge base and model
// flags it shares with ask.
type serveFlags struct {
	turnFlags
	addr            string
	apiKeys         []string
	reviewerKeys    []string
	keysFile        string
	allowedHosts    []string
	maxTurnsPerKey  int
	turnTimeout     time.Duration
	trustClientRole bool
	queue           string
}

func newServeCmd(a *app) *cobra.Command {
	var f serveFlags
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the default turn over an OpenAI-compatible HTTP API (/v1/chat/completions)",
		Long: `Serve the default turn over HTTP: the web chat at / (open http://ADDR/ in a browser),
the studio at /studio (the graph, runs live, a thread's checkpoints, edit and fork; its API
behind the same keys),
POST /v1/chat/completions (OpenAI's format, streaming or not), GET /v1/models, POST /v1/turns
(the structured result), GET /v1/threads (the key's sessions), GET /v1/threads/{id},
POST and GET /v1/assistants (named, versioned configurations; making one takes a reviewer key),
GET /healthz and GET /readyz. With --queue, POST /v1/runs queues a turn for the workers
(sgrgraph worker) and GET /v1/runs/{id} and /v1/runs/{id}/events follow it.

Threads are always kept: serve opens the store of --store, threads.store, or else
threads.db in the user cache directory, so that a client's X-Session-Id continues its
conversation. A session idle for longer than threads.max_age (default 720h, 30 days)
is dropped: serve sweeps the store every 24th of it (at least a minute, at most an hour). API keys come from --api-key and $SGRGRAPH_API_KEYS (comma-separated);
without keys every request is let in (meant for a loopback address) whose Host is localhost,
a loopback address, the address the client connected to, the name in --addr or one of
--allowed-hosts, which keeps out pages of other sites that have their name resolve here;
--max-turns-per-key then counts the turns of each client address. Every POST must be
Content-Type: application/json.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// Checked here: the server takes 0 for its default, and a
			// negative limit would refuse every turn.
			if f.maxTurnsPerKey < 1 {
				return fmt.Errorf("--max-turns-per-key: %d is not above 0", f.maxTurnsPerKey)
			}
			if f.turnTimeout <= 0 {
				return fmt.Errorf("--turn-timeout: %s is not above 0", f.turnTimeout)
			}
			for _, h := range f.allowedHosts {
				if err := server.CheckAllowedHost(h); err != nil {
					return fmt.Errorf("--allowed-hosts: %w", err)
				}
			}
			return f.serve(cmd, a)
		},
	}
	f.registerKB(cmd)
	f.registerModel(cmd)
	cmd.Flags().StringVar(&f.store, "store", "", "where threads are kept: postgres://..., redis://... or a SQLite file (default: threads.store, else threads.db in the user cache dir)")
	cmd.Flags().StringVar(&f.addr, "addr", "127.0.0.1:8080", "address to listen on; port 0 picks a free one")
	cmd.Flags().StringArrayVar(&f.apiKeys, "api-key", nil, "an API key clients must send as a bearer token (repeatable; also $SGRGRAPH_API_KEYS, comma-separated)")
	cmd.Flags().StringArrayVar(&f.reviewerKeys, "reviewer-key", nil, "an API key that may also answer drafts held for review (guardian.human_review); an --api-key may not (repeatable)")
	cmd.Flags().StringVar(&f.keysFile, "keys", "", "a file of API keys, one a line, each followed by its role: asker (the default) or reviewer (answers reviews, makes assistants); with --api-key and --reviewer-key")
	cmd.Flags().StringSliceVar(&f.allowedHosts, "allowed-hosts", nil, "without API keys, a Host name (NAME or NAME:PORT) clients may use besides loopback and the address they connect to (repeatable, comma-separated)")
	cmd.Flags().IntVar(&f.maxTurnsPerKey, "max-turns-per-key", 8, "turns one API key (without keys, one client address) may run at once")
	cmd.Flags().DurationVar(&f.turnTimeout, "turn-timeout", 5*time.Minute, "longest a turn may take")
	cmd.Flags().StringVar(&f.queue, "queue", "", "the Redis of queued runs (POST /v1/runs), redis://HOST:PORT/DB; workers take them (sgrgraph worker)")
	cmd.Flags().BoolVar(&f.trustClientRole, "trust-client-role", false, "let /v1/turns requests choose the query policy's role (only behind a gateway that sets it)")
	return cmd
}

func (f *serveFlags) serve(cmd *cobra.Command, a *app) error {
	keys := f.apiKeys
	for _, k := range strings.Split(os.Getenv("SGRGRAPH_API_KEYS"), ",") {
		if k = strings.TrimSpace(k); k != "" {
			keys = append(keys, k)
		}
	}
	reviewers := f.reviewerKeys
	if f.keysFile != "" {
		file, err := os.Open(f.keysFile)
		if err != nil {
			return fmt.Errorf("--keys: %w", err)
		}
		askers, revs, err := server.ReadKeys(file)
		file.Close()
		if err != nil {
			return fmt.Errorf("--keys %s: %w", f.keysFile, err)
		}
		keys, reviewers = append(keys, askers...), append(slices.Clone(reviewers), revs...)
	}
	var queue *runs.Queue
	if f.queue != "" {
		q, err := runs.Open(cmd.Context(), f.queue, runs.Options{})
		if err != nil {
			return fmt.Errorf("--queue: %w", err)
		}
		defer q.Close()
		queue = q
	}
	f.keepThreads = true
	ag, done, err := f.build(cmd, a)
	if err != nil {
		return err
	}
	defer done()
	if maxAge := a.cfg.Threads.MaxAge; maxAge > 0 {
		sweepCtx, stopSweep := context.WithCancel(cmd.Context())
		swept := make(chan struct{})
		go func() { defer close(swept); expireThreads(sweepCtx, ag.Store(), maxAge, a.log) }()
		defer func() { stopSweep(); <-swept }()
	}
	ui, err := webui.New()
	if err != nil {
		return err
	}
	// The studio shows a key the threads of its own sessions only.
	studioUI, err := studio.ForAgent(ag, studio.Options[agent.State]{Owner: server.KeyOf, Log: a.log})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return fmt.Errorf("--addr: %w", err)
	}
	if len(keys)+len(reviewers) == 0 && !loopback(ln.Addr()) {
		a.log.Warn().Str("addr", ln.Addr().String()).Msg("listening beyond loopback without API keys: anyone who reaches this address can run turns; give --api-key")
	}
	if len(keys) > 0 && len(f.allowedHosts) > 0 {
		a.log.Info().Msg("--allowed-hosts has no effect with API keys: the Host is checked only on a server without keys")
	}
	// Assistants share the store of threads, so replicas share them; each
	// builds its agent with the store, on its first turn.
	assistants, err := agent.NewAssistants(agent.AssistantsOptions{Base: a.cfg, Agent: agent.Options{Store: ag.Store()}})
	if err != nil {
		return err
	}
	defer assistants.Close()
	webhookHosts, err := runs.NewWebhookHosts(a.cfg.Serve.WebhookHosts)
	if err != nil {
		return fmt.Errorf("serve.webhook_hosts: %w", err)
	}
	h := server.New(ag, server.Options{WebhookHosts: webhookHosts, APIKeys: keys, ReviewerKeys: reviewers, Assistants: assistants, AllowedHosts: f.hosts(), MaxTurnsPerKey: f.maxTurnsPerKey, TurnTimeout: f.turnTimeout,
		Sessions: true, TrustClientRole: f.trustClientRole, Log: a.log, Runs: queue, UI: ui, Studio: studioUI, Tracing: a.serverTracing(),
		MCP: mcpserver.HTTPHandler(mcpserver.New(ag, mcpserver.Options{Log: a.log}), server.KeyOf)})
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second, // the body; a turn's handler lifts it once the body is read
		// Turns take longer than any fixed bound: their handlers set a
		// deadline for each write instead (server.writeWindow), which
		// replaces this one.
		WriteTimeout: 30 * time.Second,
		IdleTimeout:  2 * time.Minute,
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintf(a.out, "listening on http://%s\n", ln.Addr())

	select {
	case err := <-served:
		return err
	case <-cmd.Context().Done():
	}
	h.Drain()
	a.log.Info().Msg("shutting down: no new connections, finishing the turns in flight")
	ctx, cancel := context.WithTimeout(context.WithoutCancel(cmd.Context()), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		a.log.Warn().Err(err).Msgf("turns still running after %s: their connections are dropped", shutdownGrace)
		srv.Close()
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// expireThreads drops the sessions idle for longer than maxAge
// (threads.max_age), every sweepEvery(maxAge) until ctx ends: a turn prunes
// only its own thread, so a session nobody continues would stay for ever.
func expireThreads(ctx context.Context, store checkpoint.Store, maxAge time.Duration, log zerolog.Logger) {
	t := time.NewTicker(sweepEvery(maxAge))
	defer t.Stop()
	for {
		sweepThreads(ctx, store, maxAge, log)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// sweepEvery is how often serve drops expired threads: a 24th of max_age,
// from a minute to an hour.
func sweepEvery(maxAge time.Duration) time.Duration {
	return min(max(maxAge/24, time.Minute), time.Hour)
}

// sweepThreads drops the checkpoints older than maxAge of every thread
// once; a failure is logged, and the next sweep tries again. Assistants'
// versions are kept whatever their age, and the record of a
// conversation's assistant goes with the conversation.
func sweepThreads(ctx context.Context, store checkpoint.Store, maxAge time.Duration, log zerolog.Logger) {
	n, err := pruneConversations(ctx, store, maxAge)
	switch {
	case err != nil && ctx.Err() == nil:
		log.Warn().Err(err).Msg("dropping expired threads (threads.max_age)")
	case n > 0:
		log.Info().Int("checkpoints", n).Dur("max_age", maxAge).Msg("dropped expired threads")
	}
}

// pruneConversations prunes each thread but the assistants' ones, and
// drops the record of the assistant of a conversation that is gone (once
// it is a minute old: a conversation's first checkpoint follows it).
func pruneConversations(ctx context.Context, store checkpoint.Store, maxAge time.Duration) (int, error) {
	threads, err := store.Threads(ctx)
	if err != nil {
		return 0, err
	}
	live := make(map[string]bool, len(threads))
	removed := 0
	for _, t := range threads {
		if agent.IsAssistantThread(t.Thread) || ctx.Err() != nil {
			continue
		}
		n, perr := store.Prune(ctx, t.Thread, checkpoint.Retention{MaxAge: maxAge})
		removed += n
		live[t.Thread] = n < t.Checkpoints || perr != nil
		err = errors.Join(err, perr)
	}
	for _, t := range threads {
		conversation, ok := agent.BindingOf(t.Thread)
		if ok && !live[conversation] && time.Since(t.Latest) > time.Minute && ctx.Err() == nil {
			err = errors.Join(err, store.Delete(ctx, t.Thread))
		}
	}
	return removed, err
}

// hosts are the Host names the server answers to without keys, besides
// loopback and the address a client connected to: --allowed-hosts, and the
// name --addr listens on, which its clients use (an address in --addr is
// the connection's own and needs no entry).
func (f *serveFlags) hosts() []string {
	hosts := slices.Clone(f.allowedHosts)
	if name, _, err := net.SplitHostPort(f.addr); err == nil && name != "" && net.ParseIP(name) == nil {
		hosts = append(hosts, name)
	}
	return hosts
}

// loopback says whether addr is reachable from this machine only.
func loopback(addr net.Addr) bool {
	tcp, ok := addr.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}
