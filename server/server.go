package server

import (
	"cmp"
	"net/http"
	"slices"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/runs"
)

// Options configure a Server; zero values take the defaults named.
type Options struct {
	// APIKeys are the keys a client must send as "Authorization: Bearer
	// KEY"; none lets every request in (for a loopback address).
	APIKeys []string
	// ReviewerKeys are keys that may also answer drafts held for review
	// (POST /v1/threads/{id}/resume, every key's GET /v1/reviews); an
	// APIKeys key may not. Without any key, every client may.
	ReviewerKeys []string
	// Model is the name the server answers as (default "sgrgraph"); a
	// request may name any model, the turn is the same.
	Model string
	// MaxBodyBytes bounds a request body (default 1 MiB).
	MaxBodyBytes int64
	// MaxMessages bounds a chat request's messages (default 200).
	MaxMessages int
	// MaxTurnsPerKey bounds the turns one key runs at once (default 8);
	// without keys, the turns of one client address (an IPv4 address, an
	// IPv6 /64; X-Forwarded-For is not read).
	MaxTurnsPerKey int
	// AllowedHosts are the Host names (with a port, or any port without
	// one) a server without APIKeys answers to, besides localhost, the
	// loopback addresses and the address a client connected to: any other
	// Host is refused with 403, which defeats DNS rebinding. With keys the
	// Host is not checked. See CheckAllowedHost for an entry's form.
	AllowedHosts []string
	// TurnTimeout bounds one turn (default 5 minutes).
	TurnTimeout time.Duration
	// MultitaskWait bounds how long a turn sent to a busy session with
	// multitask_strategy enqueue, interrupt or rollback waits for the
	// session's running turn to end (default 1 minute).
	MultitaskWait time.Duration
	// Sessions says the agent keeps threads (it was built with
	// agent.Options.Store): X-Session-Id and /v1/threads need it.
	Sessions bool
	// TrustClientRole lets a request's role (POST /v1/turns) choose the
	// query policy's permissions. Leave it off unless a gateway in front
	// sets the role: a client would pick the role with the fewest denials.
	TrustClientRole bool
	// Log receives the access log and the errors; the zero Logger drops them.
	Log zerolog.Logger
	// MCP, when set, serves the Model Context Protocol at /mcp (Streamable
	// HTTP), behind the same API keys; give it KeyOf as the owner of its
	// sessions (mcpserver.HTTPHandler).
	MCP http.Handler
	// Assistants, when set, serves named, versioned configurations beside
	// the agent's own (/v1/assistants; assistants.go). Its store should be
	// the agent's, where conversations are kept.
	Assistants *agent.Assistants
	// Runs, when set, takes turns for workers at /v1/runs (see package runs).
	Runs *runs.Queue
	// WebhookHosts are where a run's webhook may go (serve.webhook_hosts);
	// the zero value allows loopback addresses only.
	WebhookHosts runs.WebhookHosts
	// UI, when set, serves a web page: GET / and GET /ui/... (package
	// webui), without an API key, since a page holds none; the page asks
	// for one when the API answers 401. Every other path stays the API's.
	UI http.Handler
	// Studio, when set, serves the studio (package studio) at /studio: its
	// page and files without an API key, as the web chat's, and its API at
	// /studio/api/ behind the same keys as every other call.
	Studio http.Handler
	// Tracing gives requests server spans that join an incoming
	// traceparent (tracing.go); the zero value makes none.
	Tracing Tracing
}

func (o Options) withDefaults() Options {
	o.Model = cmp.Or(o.Model, "sgrgraph")
	o.MaxBodyBytes = cmp.Or(o.MaxBodyBytes, 1<<20)
	o.MaxMessages = cmp.Or(o.MaxMessages, 200)
	o.MaxTurnsPerKey = cmp.Or(o.MaxTurnsPerKey, 8)
	o.TurnTimeout = cmp.Or(o.TurnTimeout, 5*time.Minute)
	o.MultitaskWait = cmp.Or(o.MultitaskWait, time.Minute)
	return o
}

// Server is the HTTP handler of the API. It is safe for concurrent use.
type Server struct {
	agent *agent.Agent
	opts  Options
	keys  keyring
	// reviewers are the ids of ReviewerKeys (reviews.go).
	reviewers reviewerSet
	hosts     hostRule
	inFlight  *inFlight
	draining  atomic.Bool
	metrics   *metrics
	running   *runningTurns // session turns this replica runs (multitask.go)
	handler   http.Handler
	// keepAlive is how often an idle completion stream gets a comment
	// line: the constant keepAlive, shorter in the package's tests.
	keepAlive time.Duration
	// stopPoll is how often a session turn looks for a request on another
	// replica to stop it: the constant stopPoll, shorter in the package's
	// tests.
	stopPoll time.Duration
}

// New serves the agent's turns. The agent stays the caller's to close,
// after the server has stopped.
func New(a *agent.Agent, o Options) *Server {
	o = o.withDefaults()
	s := &Server{agent: a, opts: o, keys: newKeyring(append(slices.Clone(o.APIKeys), o.ReviewerKeys...)), reviewers: newReviewerSet(o.ReviewerKeys), hosts: newHostRule(o.AllowedHosts), inFlight: newInFlight(o.MaxTurnsPerKey),
		metrics: newMetrics(), running: newRunningTurns(), keepAlive: keepAlive, stopPoll: stopPoll}
	mux := http.NewServeMux()
	// Probes answer without a key: a load balancer holds none.
	mux.Handle("/healthz", only(http.MethodGet, http.HandlerFunc(s.healthz)))
	mux.Handle("/readyz", only(http.MethodGet, http.HandlerFunc(s.readyz)))
	// Metrics answer without a key too: operators' Prometheus scrapes them,
	// and they hold counts and latencies only, labelled by closed sets
	// (actions, verdicts, node names, routes, status codes), never a
	// message, an answer, a session or a key.
	mux.Handle("/metrics", only(http.MethodGet, s.metrics.handler()))
	mux.Handle("/v1/models", only(http.MethodGet, s.authorized(s.models)))
	mux.Handle("/v1/models/{id}", only(http.MethodGet, s.authorized(s.model)))
	// Every POST changes something (runs a turn, queues a run, calls an
	// MCP tool): jsonPosts refuses the bodies a foreign page sends freely.
	mux.Handle("/v1/chat/completions", only(http.MethodPost, jsonPosts(s.authorized(s.chatCompletions))))
	mux.Handle("/v1/turns", only(http.MethodPost, jsonPosts(s.authorized(s.turns))))
	mux.Handle("/v1/threads", only(http.MethodGet, s.authorized(s.threads)))
	mux.Handle("/v1/threads/{id}", only(http.MethodGet, s.authorized(s.thread)))
	mux.Handle("/v1/threads/{id}/resume", only(http.MethodPost, jsonPosts(s.authorized(s.resume))))
	mux.Handle("/v1/reviews", only(http.MethodGet, s.authorized(s.reviews)))
	mux.Handle("POST /v1/assistants", jsonPosts(s.authorized(s.createAssistant)))
	mux.Handle("GET /v1/assistants", s.authorized(s.assistants))
	mux.Handle("GET /v1/assistants/{name}", s.authorized(s.assistant))
	mux.Handle("/v1/runs", only(http.MethodPost, jsonPosts(s.authorized(s.queued(s.submitRun)))))
	mux.Handle("/v1/runs/{id}", only(http.MethodGet, s.authorized(s.queued(s.getRun))))
	mux.Handle("/v1/runs/{id}/events", only(http.MethodGet, s.authorized(s.queued(s.runEvents))))
	mux.Handle("POST /v1/crons", jsonPosts(s.authorized(s.queued(s.addCron))))
	mux.Handle("GET /v1/crons", s.authorized(s.queued(s.crons)))
	mux.Handle("DELETE /v1/crons/{id}", s.authorized(s.queued(s.deleteCron)))
	if o.MCP != nil {
		mux.Handle("/mcp", jsonPosts(s.authorized(func(w http.ResponseWriter, r *http.Request, _ string) { o.MCP.ServeHTTP(w, r) })))
	}
	if o.UI != nil {
		// GET only: any other method on these paths is the API's 404 below.
		mux.Handle("GET /{$}", o.UI)
		mux.Handle("GET /ui/", o.UI)
	}
	if o.Studio != nil {
		mux.Handle("GET /studio", o.Studio)
		mux.Handle("GET /studio/{$}", o.Studio)
		mux.Handle("GET /studio/assets/", o.Studio)
		mux.Handle("/studio/api/", jsonPosts(s.authorized(func(w http.ResponseWriter, r *http.Request, _ string) { o.Studio.ServeHTTP(w, r) })))
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, &apiError{Status: http.StatusNotFound, Type: typeInvalidRequest, Code: "unknown_url",
			Message: "unknown URL: " + r.Method + " " + r.URL.Path})
	})
	s.handler = s.traced(s.accessLog(s.recovered(s.hostChecked(mux))))
	return s
}

// KeyOf is the id of the API key a request came with ("anonymous" on a
// server without keys), for a handler mounted behind the server's keys.
func KeyOf(r *http.Request) string { return recordOf(r).key }

// ServeHTTP serves one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// Drain makes /readyz answer 503, so that a load balancer sends no more
// requests while the server shuts down; turns in flight go on.
func (s *Server) Drain() { s.draining.Store(true) }

func (s *Server) healthz(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

func (s *Server) readyz(w http.ResponseWriter, _ *http.Request) {
	if s.draining.Load() {
		writeError(w, &apiError{Status: http.StatusServiceUnavailable, Type: typeServer, Code: "shutting_down", Message: "the server is shutting down"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
}

func (s *Server) models(w http.ResponseWriter, r *http.Request, _ string) {
	writeJSON(w, http.StatusOK, modelList{Object: "list", Data: append([]modelInfo{{ID: s.opts.Model, Object: "model", OwnedBy: "sgrgraph"}}, s.assistantModels(r)...)})
}

// only answers other methods with 405 in OpenAI's error shape (the mux's
// own 405 is plain text).
func only(method string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != method {
			w.Header().Set("Allow", method)
			writeError(w, &apiError{Status: http.StatusMethodNotAllowed, Type: typeInvalidRequest, Code: "method_not_allowed",
				Message: r.URL.Path + ": use " + method + ", not " + r.Method})
			return
		}
		h.ServeHTTP(w, r)
	})
}

// authorized lets in a request with a valid key and records the key's id.
func (s *Server) authorized(h func(http.ResponseWriter, *http.Request, string)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := s.keys.identify(r)
		if key == "" {
			w.Header().Set("WWW-Authenticate", `Bearer realm="sgrgraph"`)
			writeError(w, &apiError{Status: http.StatusUnauthorized, Type: typeAuthentication, Code: "invalid_api_key",
				Message: "missing or invalid API key: send Authorization: Bearer KEY"})
			return
		}
		recordOf(r).key = key
		h(w, r, key)
	})
}
