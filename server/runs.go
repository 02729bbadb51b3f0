package server

import (
	"cmp"
	"errors"
	"net/http"
	"time"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/runs"
)

// runView is a run as the API shows it.
type runView struct {
	Object string `json:"object"` // run
	runs.Run
}

func viewOf(run runs.Run) runView { return runView{Object: "run", Run: run} }

// memoryOf gives the turn the long-term memory (memory.enabled) of the
// request's user, in the key's space (tenants/KEY/users/USER): the key
// itself when no user is named. It is how chat completions, /v1/turns and
// /v1/runs scope memory alike, so that one key never reads another's.
func (s *Server) memoryOf(t *agent.Turn, key, user string) *apiError {
	t.Tenant, t.User = key, user
	if err := agent.CheckMemoryIDs(*t); err != nil {
		return invalid("user", "invalid_value", "%v", err)
	}
	return nil
}

// queued lets a runs endpoint answer only on a server with a queue.
func (s *Server) queued(h func(http.ResponseWriter, *http.Request, string)) func(http.ResponseWriter, *http.Request, string) {
	return func(w http.ResponseWriter, r *http.Request, key string) {
		if s.opts.Runs == nil {
			writeError(w, &apiError{Status: http.StatusNotFound, Type: typeInvalidRequest, Code: "runs_unavailable",
				Message: "runs need a queue: start the server with --queue redis://HOST:PORT, and workers (sgrgraph worker) on the same queue"})
			return
		}
		h(w, r, key)
	}
}

// submitRun answers POST /v1/runs: the turn is queued for a worker, and the
// client gets its run id at once (202), to poll or to stream.
func (s *Server) submitRun(w http.ResponseWriter, r *http.Request, key string) {
	var req turnRequest
	if e := decodeBody(w, r, s.opts.MaxBodyBytes, &req); e != nil {
		writeError(w, e)
		return
	}
	e := s.turnOf(&req)
	if e == nil && req.Stream {
		e = invalid("stream", "invalid_value", "stream: a run answers at once; its events are at GET /v1/runs/{id}/events")
	}
	id := runs.NewID()
	t := agent.Turn{SessionID: id, Number: 1, Language: req.Language, Role: req.Role, QueryTraces: req.IncludeQueryTraces}
	if e == nil {
		t.Message = *req.Message
		e = s.memoryOf(&t, key, req.User)
	}
	if e == nil {
		r, e = withMultitask(r, req.MultitaskStrategy)
	}
	if e == nil {
		e = s.continueSession(&t, r, key, cmp.Or(req.SessionID, r.Header.Get(sessionHeader)), "session_id")
	}
	assistant := ""
	if e == nil {
		assistant, e = s.runAssistant(r, t, req.Assistant)
	}
	spec := runs.SpecOf(t)
	spec.Assistant = assistant
	if e == nil {
		e = s.webhookOf(&spec, r, req.Webhook)
	}
	if t.Lock != nil {
		// The worker runs the turn under a lock of its own, and may take
		// it before this request ends: the session is free from here.
		if err := t.Lock.Release(); err != nil {
			s.opts.Log.Warn().Err(err).Str("request", recordOf(r).id).Msg("unlocking a run's session")
		}
	}
	if e != nil {
		writeError(w, e)
		return
	}
	run, err := s.opts.Runs.Submit(r.Context(), key, id, spec)
	if err != nil {
		s.opts.Log.Error().Str("request", recordOf(r).id).Err(err).Msg("queueing a run failed")
		writeError(w, &apiError{Status: http.StatusServiceUnavailable, Type: typeServer, Code: "queue_unavailable",
			Message: "the run could not be queued; try again (request " + recordOf(r).id + ")"})
		return
	}
	s.metrics.runsQueued.Inc()
	w.Header().Set("Location", "/v1/runs/"+id)
	writeJSON(w, http.StatusAccepted, viewOf(run))
}

// getRun answers GET /v1/runs/{id}: the run's status, and its result or
// error once it has one.
func (s *Server) getRun(w http.ResponseWriter, r *http.Request, key string) {
	run, err := s.opts.Runs.Get(r.Context(), key, r.PathValue("id"))
	if err != nil {
		s.runError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, viewOf(run))
}

// runEvents answers GET /v1/runs/{id}/events with the run's events as
// server-sent events, from the first or from after the Last-Event-ID (or
// ?after=) a reconnecting client sends: each carries its position as id,
// its kind as the event name (started, the turn's event kinds, then
// result or error), and its data; [DONE] follows the last. The stream
// ends early when the server shuts down; the client reconnects.
func (s *Server) runEvents(w http.ResponseWriter, r *http.Request, key string) {
	id := r.PathValue("id")
	after := cmp.Or(r.Header.Get("Last-Event-ID"), r.URL.Query().Get("after"))
	// The first read tells an unknown run (404) from a known one before
	// the stream's 200 is sent.
	evs, err := s.opts.Runs.Events(r.Context(), key, id, after, 0)
	if err != nil {
		s.runError(w, r, err)
		return
	}
	_ = http.NewResponseController(w).SetReadDeadline(time.Time{})
	out := newSSE(w)
	for {
		for _, ev := range evs {
			if err := out.frame(ev.ID, ev.Kind, ev.Data); err != nil {
				return // the client went away
			}
			after = ev.ID
			if ev.Last() {
				_ = out.done()
				return
			}
		}
		if s.draining.Load() || r.Context().Err() != nil {
			return
		}
		if len(evs) == 0 && out.keepAlive() != nil {
			return
		}
		evs, err = s.opts.Runs.Events(r.Context(), key, id, after, keepAlive)
		if err != nil {
			if r.Context().Err() == nil {
				s.opts.Log.Warn().Str("request", recordOf(r).id).Str("run", id).Err(err).Msg("reading a run's events failed")
				_ = out.event("error", map[string]string{"error": "the run's events could not be read; reconnect with Last-Event-ID " + after})
			}
			return
		}
	}
}

func (s *Server) runError(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, runs.ErrNotFound) {
		writeError(w, &apiError{Status: http.StatusNotFound, Type: typeInvalidRequest, Param: "id", Code: "run_not_found",
			Message: "no run " + r.PathValue("id") + " for this API key (finished runs are kept for a day)"})
		return
	}
	s.opts.Log.Error().Str("request", recordOf(r).id).Err(err).Msg("reading a run failed")
	writeError(w, &apiError{Status: http.StatusServiceUnavailable, Type: typeServer, Code: "queue_unavailable",
		Message: "the queue could not be read; try again (request " + recordOf(r).id + ")"})
}
