package studio

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/graph"
)

// Options configure the studio of one graph; zero values take the defaults
// named.
type Options[S any] struct {
	// Input makes a run's input of the text typed on the page; nil decodes
	// it as the state's JSON.
	Input func(text string) (S, error)
	// Subgraphs are drawn inside the nodes that run them (see
	// graph.Runnable.MermaidWith), so that a run's steps inside them light
	// up too.
	Subgraphs map[string]*graph.Runnable[S]
	// Owner, when set, scopes threads to the request's owner (such as
	// server.KeyOf: the API key): the studio sees the store's threads named
	// OWNER/ID as ID, and no others. Nil shows every thread.
	Owner func(*http.Request) string
	// Lock, when set, takes a thread for a run the page starts and returns
	// what frees it, so that a studio run and another run of the thread
	// (a chat turn) never run at once; an error refuses the run with 409.
	// Without it, the studio refuses a second run of a thread only among
	// its own.
	Lock func(ctx context.Context, thread string) (release func(), err error)
	// RunTimeout bounds a run the page starts (default 5 minutes).
	RunTimeout time.Duration
	// MaxThreads bounds the threads listed (default 200, the newest);
	// MaxCheckpoints the checkpoints of a thread listed (default 200).
	MaxThreads, MaxCheckpoints int
	// MaxBodyBytes bounds a request body (default 1 MiB).
	MaxBodyBytes int64
	// Log receives the errors; the zero Logger drops them.
	Log zerolog.Logger
}

// Handler serves the studio: the page at /studio, its files at
// /studio/assets/NAME and the JSON API the page calls at /studio/api/...
// (docs/platform.md). Mount it at "/studio" and "/studio/"; the page
// holds no secret, the API reads and changes threads: put it behind
// whatever lets a request in (server.Options.Studio puts the API behind
// the server's keys).
type Handler struct {
	mux *http.ServeMux
}

// ServeHTTP serves one request.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.mux.ServeHTTP(w, r) }

// studio is the studio of one graph, over its state type.
type studio[S any] struct {
	graph   *graph.Runnable[S]
	store   checkpoint.Store
	o       Options[S]
	mermaid string
	svg     string
	nodes   []nodeView
	fields  []field
	running sync.Map // thread in the store → struct{}: the studio's own runs
}

// New is the studio of a compiled graph whose runs are checkpointed in
// store (the store the graph was compiled with graph.WithCheckpointer):
// the graph drawn from its Mermaid, runs streamed node by node, each
// thread's checkpoints with their states, edits that fork a thread, and
// replays. The graph's state must be a struct or a pointer to one.
func New[S any](g *graph.Runnable[S], store checkpoint.Store, o Options[S]) (*Handler, error) {
	if g == nil || store == nil {
		return nil, fmt.Errorf("studio: a graph and its checkpoint store are both needed")
	}
	o.RunTimeout = cmp.Or(o.RunTimeout, 5*time.Minute)
	o.MaxThreads = cmp.Or(o.MaxThreads, 200)
	o.MaxCheckpoints = cmp.Or(o.MaxCheckpoints, 200)
	o.MaxBodyBytes = cmp.Or(o.MaxBodyBytes, 1<<20)
	if o.Input == nil {
		o.Input = decodeInput[S]
	}
	fields, err := fieldsOf[S]()
	if err != nil {
		return nil, fmt.Errorf("studio: graph %s: %w", g.Name(), err)
	}
	st := &studio[S]{graph: g, store: store, o: o, fields: fields, mermaid: g.MermaidWith(o.Subgraphs)}
	d, err := parseMermaid(st.mermaid)
	if err != nil {
		return nil, fmt.Errorf("studio: graph %s: %w", g.Name(), err)
	}
	st.svg = d.svg()
	for _, n := range d.nodes {
		st.nodes = append(st.nodes, nodeView{Path: n.Path, Label: n.Label, Subgraph: n.Cluster, Top: n.Parent == nil})
	}
	page, err := newPage()
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("GET /studio", page)
	mux.Handle("GET /studio/{$}", page)
	mux.Handle("GET /studio/assets/{name}", page)
	mux.HandleFunc("GET /studio/api/graph", st.graphInfo)
	mux.HandleFunc("GET /studio/api/graph.svg", st.graphSVG)
	mux.HandleFunc("GET /studio/api/threads", st.threads)
	mux.HandleFunc("GET /studio/api/threads/{thread}", st.thread)
	mux.HandleFunc("GET /studio/api/threads/{thread}/checkpoints", st.checkpoints)
	mux.HandleFunc("GET /studio/api/threads/{thread}/checkpoints/{checkpoint}", st.checkpoint)
	mux.HandleFunc("POST /studio/api/threads/{thread}/checkpoints/{checkpoint}/fork", st.fork)
	mux.HandleFunc("POST /studio/api/threads/{thread}/runs", st.run)
	mux.HandleFunc("/studio/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "", "unknown URL: %s %s", r.Method, r.URL.Path)
	})
	return &Handler{mux: mux}, nil
}

// decodeInput reads the page's text as the state's JSON.
func decodeInput[S any](text string) (S, error) {
	s, err := decodeStrict[S]([]byte(text))
	if err != nil {
		return s, fmt.Errorf("input: not the state's JSON: %w", err)
	}
	return s, nil
}

// apiError is the JSON of an error answer, in the shape the server's API
// uses: the message, and the request field it is about.
type apiError struct {
	Error struct {
		Message string `json:"message"`
		Type    string `json:"type"`
		Param   string `json:"param,omitempty"`
	} `json:"error"`
}

func writeError(w http.ResponseWriter, status int, param, format string, args ...any) {
	var e apiError
	e.Error.Message, e.Error.Param, e.Error.Type = fmt.Sprintf(format, args...), param, "invalid_request_error"
	if status >= 500 {
		e.Error.Type = "server_error"
	}
	writeJSON(w, status, e)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
