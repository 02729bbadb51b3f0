package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/sgrgraph/sgrgraph/agent"
)

// record is what the access log says of a request; the handlers fill in
// what only they know.
type record struct {
	id      string
	status  int
	key     string // the key's id, never the key
	session string
	turn    int
}

type recordKey struct{}

// recordOf is the request's record (a fresh one outside accessLog, so
// that a handler tested alone still works).
func recordOf(r *http.Request) *record {
	if rec, ok := r.Context().Value(recordKey{}).(*record); ok {
		return rec
	}
	return &record{}
}

// statusWriter notes the status a handler sent. It keeps Unwrap so that
// http.ResponseController still reaches the connection (Flush, deadlines).
type statusWriter struct {
	http.ResponseWriter
	rec *record
}

func (w *statusWriter) WriteHeader(status int) {
	if w.rec.status == 0 {
		w.rec.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.rec.status == 0 {
		w.rec.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// accessLog writes one structured line per request.
func (s *Server) accessLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &record{id: newID()}
		w.Header().Set("X-Request-Id", rec.id)
		// The server runs many turns at once: their nodes yield to each
		// other and to the requests being read and written (agent.Yielding).
		r = r.WithContext(agent.Yielding(context.WithValue(r.Context(), recordKey{}, rec)))
		next.ServeHTTP(&statusWriter{ResponseWriter: w, rec: rec}, r)
		s.metrics.request(r.Pattern, rec.status, time.Since(start)) // the mux set r.Pattern on this request
		nameSpan(r)
		ev := s.opts.Log.Info()
		if rec.status >= 500 {
			ev = s.opts.Log.Error()
		}
		ev = withTraceID(ev, r)
		ev.Str("request", rec.id).Str("method", r.Method).Str("path", r.URL.Path).Int("status", rec.status).
			Dur("duration", time.Since(start)).Str("key", rec.key).Str("session", rec.session).Int("turn", rec.turn).Msg("request")
	})
}

// recovered turns a panic into a 500 in OpenAI's shape and a log line with
// the stack, so that no input can end the process.
func (s *Server) recovered(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if err, ok := v.(error); ok && errors.Is(err, http.ErrAbortHandler) { // net/http's own way to drop a connection
				panic(v)
			}
			s.opts.Log.Error().Str("request", recordOf(r).id).Interface("panic", v).Bytes("stack", debug.Stack()).Msg("handler panicked")
			if recordOf(r).status == 0 { // nothing was sent yet: the client gets an error it can read
				writeError(w, internalError(recordOf(r).id))
			}
		}()
		next.ServeHTTP(w, r)
	})
}

func internalError(request string) *apiError {
	return &apiError{Status: http.StatusInternalServerError, Type: typeServer, Code: "internal_error",
		Message: "the server failed to answer; the server log has the details under request " + request}
}

func newID() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
