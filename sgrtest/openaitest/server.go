// Package openaitest is a test double of an OpenAI-compatible model server:
// it speaks the chat-completions protocol (JSON and SSE streaming, tool
// calls split across chunks, usage, errors) and answers with any eino chat
// model behind it, so a whole turn can run against a real HTTP client. It
// injects faults on request: delays, 429 with Retry-After, 5xx, streams
// broken in the middle or closed early as if whole, broken tool-call JSON,
// missing usage, refused named tool choice. It records every request it got.
package openaitest

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
)

// Fault is what the server does to one request.
type Fault struct {
	// Status answers with this HTTP status and an OpenAI error body.
	Status     int
	RetryAfter string // the Retry-After header sent with Status
	// Delay waits before answering (or until the client gives up).
	Delay time.Duration
	// DropAfter kills a streamed answer's connection after this many
	// chunks, in the middle of its chunked body: the client reads an error.
	DropAfter int
	// CloseAfter ends a streamed answer after this many chunks the way a
	// server that sent no length ends it, by closing the connection: the
	// client reads a clean end, with no finish_reason and no [DONE]. Chunk 1
	// is the role; then one chunk per word of text; each tool call is a
	// head and two halves of its arguments.
	CloseAfter int
	// CloseAfterBytes does the same after this many bytes of the event
	// stream, which may fall in the middle of a line.
	CloseAfterBytes int
	// Reset resets the connection instead of answering, as a server that
	// crashed or restarted does.
	Reset bool
	// BrokenToolJSON cuts every tool call's arguments in half.
	BrokenToolJSON bool
	// NoUsage leaves usage out of the answer.
	NoUsage bool
	// BadJSON answers 200 with a body that is not JSON.
	BadJSON bool
	// EmptyChoices answers 200 with a reply of no choices.
	EmptyChoices bool
	// StallAfter stops a streamed answer after this many chunks and keeps
	// the connection open, sending nothing more, until the client leaves:
	// a server that hangs part way.
	StallAfter int
}

// Request is one chat-completions request the server got.
type Request struct {
	N      int // 1 for the first request
	Model  string
	Stream bool
	Tools  []string
	// ToolChoice is "none", "auto", "required", "function:NAME" or "".
	ToolChoice string
	Messages   []*schema.Message
	Fault      Fault
	At         time.Time // when it arrived
}

// Offers reports whether the request offered the named tool.
func (r Request) Offers(name string) bool { return slices.Contains(r.Tools, name) }

// Server is a running test server; URL ends in /v1, as clients expect.
type Server struct {
	URL    string
	model  model.BaseChatModel
	faults func(Request) Fault
	names  []string
	key    string

	mu       sync.Mutex
	requests []Request
	srv      *httptest.Server
}

// Option configures a Server.
type Option func(*Server)

// WithFaults decides the fault of each request from what it asks; the
// Request has no Fault yet. It may be called from several goroutines.
func WithFaults(f func(Request) Fault) Option { return func(s *Server) { s.faults = f } }

// WithModels names the models GET /v1/models lists (default "m").
func WithModels(names ...string) Option { return func(s *Server) { s.names = names } }

// WithAPIKey makes the server answer 401 to a request without this key.
func WithAPIKey(key string) Option { return func(s *Server) { s.key = key } }

// New starts a server answering with m.
func New(m model.BaseChatModel, opts ...Option) *Server {
	s := &Server{model: m, faults: func(Request) Fault { return Fault{} }, names: []string{"m"}}
	for _, o := range opts {
		o(s)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/models", s.listModels)
	mux.HandleFunc("POST /v1/chat/completions", s.complete)
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.key != "" && r.Header.Get("Authorization") != "Bearer "+s.key {
			writeError(w, http.StatusUnauthorized, "invalid API key")
			return
		}
		mux.ServeHTTP(w, r)
	}))
	s.URL = s.srv.URL + "/v1"
	return s
}

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// Requests returns a copy of the chat requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

func (s *Server) listModels(w http.ResponseWriter, _ *http.Request) {
	type entry struct {
		ID     string `json:"id"`
		Object string `json:"object"`
	}
	list := struct {
		Object string  `json:"object"`
		Data   []entry `json:"data"`
	}{Object: "list"}
	for _, n := range s.names {
		list.Data = append(list.Data, entry{ID: n, Object: "model"})
	}
	writeJSON(w, http.StatusOK, list)
}

func (s *Server) complete(w http.ResponseWriter, r *http.Request) {
	var req chatRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, "invalid JSON body: "+err.Error())
		return
	}
	opts, toolChoice, err := options(req)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	rec := Request{Model: req.Model, Stream: req.Stream, ToolChoice: toolChoice, Messages: toSchema(req.Messages), At: time.Now()}
	for _, t := range req.Tools {
		rec.Tools = append(rec.Tools, t.Function.Name)
	}
	// Numbered and recorded in one step, so concurrent requests get
	// distinct numbers; the fault is filled in from the number.
	s.mu.Lock()
	rec.N = len(s.requests) + 1
	s.requests = append(s.requests, rec)
	s.mu.Unlock()
	rec.Fault = s.faults(rec)
	s.mu.Lock()
	s.requests[rec.N-1].Fault = rec.Fault
	s.mu.Unlock()

	f := rec.Fault
	if f.Delay > 0 {
		select {
		case <-time.After(f.Delay):
		case <-r.Context().Done():
			return
		}
	}
	if f.Reset {
		reset(w)
		return
	}
	if f.Status != 0 {
		if f.RetryAfter != "" {
			w.Header().Set("Retry-After", f.RetryAfter)
		}
		writeError(w, f.Status, fmt.Sprintf("injected fault: status %d", f.Status))
		return
	}
	switch {
	case f.BadJSON:
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte("<html>502 Bad Gateway</html>"))
		return
	case f.EmptyChoices && req.Stream:
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = fmt.Fprintf(w, "data: {\"id\":\"chatcmpl-%d\",\"object\":\"chat.completion.chunk\",\"choices\":[]}\n\n", rec.N)
		_, _ = w.Write(done)
		return
	case f.EmptyChoices:
		writeJSON(w, http.StatusOK, chatResponse{ID: fmt.Sprintf("chatcmpl-%d", rec.N), Object: "chat.completion",
			Created: time.Now().Unix(), Model: req.Model, Choices: []choice{}})
		return
	}
	reply, err := s.model.Generate(r.Context(), rec.Messages, opts...)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "model: "+err.Error())
		return
	}
	if f.BrokenToolJSON {
		for i := range reply.ToolCalls {
			reply.ToolCalls[i].Function.Arguments = halves(reply.ToolCalls[i].Function.Arguments)[0]
		}
	}
	var u *usage
	switch {
	case f.NoUsage:
	case reply.ResponseMeta != nil && reply.ResponseMeta.Usage != nil:
		mu := reply.ResponseMeta.Usage
		u = &usage{PromptTokens: mu.PromptTokens, CompletionTokens: mu.CompletionTokens, TotalTokens: mu.TotalTokens}
	default: // the model behind counts none: four bytes a token, as servers roughly do
		u = &usage{PromptTokens: bytesOf(rec.Messages) / 4, CompletionTokens: bytesOf([]*schema.Message{reply}) / 4}
		u.TotalTokens = u.PromptTokens + u.CompletionTokens
	}
	if req.Stream {
		s.stream(r.Context(), w, req, reply, u, f)
		return
	}
	finish := finishReason(reply)
	writeJSON(w, http.StatusOK, chatResponse{ID: fmt.Sprintf("chatcmpl-%d", rec.N), Object: "chat.completion",
		Created: time.Now().Unix(), Model: req.Model, Usage: u,
		Choices: []choice{{Message: fromSchema(reply), FinishReason: &finish}}})
}

// reset closes the connection with a TCP reset, so the client reads
// "connection reset by peer" rather than a clean end.
func reset(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		writeError(w, http.StatusInternalServerError, "the connection cannot be taken over to reset it")
		return
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		writeError(w, http.StatusInternalServerError, "take over the connection: "+err.Error())
		return
	}
	if tcp, ok := conn.(*net.TCPConn); ok {
		_ = tcp.SetLinger(0)
	}
	conn.Close()
}

func bytesOf(ms []*schema.Message) int {
	n := 0
	for _, m := range ms {
		n += len(m.Content)
		for _, tc := range m.ToolCalls {
			n += len(tc.Function.Arguments)
		}
	}
	return n
}

func finishReason(m *schema.Message) string {
	if len(m.ToolCalls) > 0 {
		return "tool_calls"
	}
	return "stop"
}

// words splits text after each space, keeping every character.
func words(text string) []string {
	var out []string
	for text != "" {
		i := strings.IndexByte(text, ' ')
		if i < 0 {
			return append(out, text)
		}
		out = append(out, text[:i+1])
		text = text[i+1:]
	}
	return out
}

// halves splits arguments in two at a character boundary, so a client
// must join the pieces.
func halves(args string) []string {
	mid := len(args) / 2
	for mid > 0 && !utf8.RuneStart(args[mid]) {
		mid--
	}
	if mid == 0 {
		return []string{args}
	}
	return []string{args[:mid], args[mid:]}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	var e apiError
	e.Error.Message, e.Error.Type, e.Error.Code = msg, http.StatusText(status), status
	writeJSON(w, status, e)
}
