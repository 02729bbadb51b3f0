package mcpserver

import (
	"net/http"
	"sync"
)

// sessionHeader is the Streamable HTTP header naming a session.
const sessionHeader = "Mcp-Session-Id"

// owners remembers who opened each MCP session, so that a session id
// seen by someone else (in a log, over a shoulder) does not let another
// owner call its tools or end it. The SDK has a check of its own, but it
// needs the SDK's bearer-token middleware and answers 403, which tells
// the other owner the session exists.
type owners struct {
	mu sync.Mutex
	of map[string]string // session id → owner
}

// serve passes r to h if r opens a session or names one of who's, and
// records the owner of a session h opens; any other session is answered
// as the SDK answers one it does not know.
func (o *owners) serve(h http.Handler, w http.ResponseWriter, r *http.Request, who string) {
	id := r.Header.Get(sessionHeader)
	if id == "" {
		h.ServeHTTP(&openWriter{ResponseWriter: w, opened: func(id string) { o.set(id, who) }}, r)
		return
	}
	if !o.owns(id, who) {
		http.Error(w, "session not found", http.StatusNotFound)
		return
	}
	sw := &statusWriter{ResponseWriter: w}
	h.ServeHTTP(sw, r)
	// The session is gone once ended, or when the SDK no longer knows it.
	if (r.Method == http.MethodDelete && sw.status < 300) || sw.status == http.StatusNotFound {
		o.drop(id)
	}
}

func (o *owners) set(id, who string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.of[id] = who
}

func (o *owners) owns(id, who string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	owner, ok := o.of[id]
	return ok && owner == who
}

func (o *owners) drop(id string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.of, id)
}

// openWriter calls opened with the session id of a response that opens a
// session, before its header reaches the client, so that the client's
// next request finds its owner recorded.
type openWriter struct {
	http.ResponseWriter
	opened func(id string)
	done   bool
}

func (w *openWriter) note() {
	if !w.done {
		w.done = true
		if id := w.Header().Get(sessionHeader); id != "" {
			w.opened(id)
		}
	}
}

func (w *openWriter) WriteHeader(status int) { w.note(); w.ResponseWriter.WriteHeader(status) }

func (w *openWriter) Write(b []byte) (int, error) { w.note(); return w.ResponseWriter.Write(b) }

// Flush is called by http.ResponseController before Unwrap: a flush sends
// the header too.
func (w *openWriter) Flush() {
	w.note()
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

func (w *openWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// statusWriter notes the status of a response.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
