package server

import (
	"errors"
	"net/http"

	"github.com/sgrgraph/sgrgraph/runs"
)

// cronRequest is the body of POST /v1/crons.
type cronRequest struct {
	Schedule string  `json:"schedule"`
	Message  *string `json:"message"`
	// ThreadID is the session each run continues; without it each run
	// starts a thread of its own.
	ThreadID string `json:"thread_id"`
	Webhook  string `json:"webhook"`
}

type cronView struct {
	Object string `json:"object"` // cron
	runs.Cron
	ThreadID string `json:"thread_id,omitempty"`
	Message  string `json:"message"`
	Webhook  string `json:"webhook,omitempty"`
}

func viewOfCron(c runs.Cron) cronView {
	return cronView{Object: "cron", Cron: c, ThreadID: c.Spec.SessionID, Message: c.Spec.Message, Webhook: c.Spec.Webhook}
}

// addCron answers POST /v1/crons: a turn run on a schedule by the queue's
// workers, one run a tick whichever replica sees it first.
func (s *Server) addCron(w http.ResponseWriter, r *http.Request, key string) {
	var req cronRequest
	if e := decodeBody(w, r, s.opts.MaxBodyBytes, &req); e != nil {
		writeError(w, e)
		return
	}
	if req.Schedule == "" {
		writeError(w, invalid("schedule", "missing_required_parameter", "schedule: required (five cron fields, six with seconds first, or @every 30s)"))
		return
	}
	if _, err := runs.ParseSchedule(req.Schedule); err != nil {
		writeError(w, invalid("schedule", "invalid_value", "%s", err.Error()))
		return
	}
	if req.Message == nil {
		writeError(w, invalid("message", "missing_required_parameter", "message: required"))
		return
	}
	if e := checkMessage(*req.Message, "message"); e != nil {
		writeError(w, e)
		return
	}
	c := runs.Cron{Schedule: req.Schedule, Spec: runs.Spec{Message: *req.Message, Number: 1}}
	switch {
	case req.ThreadID != "" && !validSession(req.ThreadID):
		writeError(w, invalid("thread_id", "invalid_value", "thread_id: 1 to %d letters, digits, '-', '_', '.' or ':'", maxSessionID))
		return
	case req.ThreadID != "" && !s.opts.Sessions:
		writeError(w, invalid("thread_id", "sessions_unavailable", "thread_id: sessions need a thread store (threads.store), and this server keeps none"))
		return
	case req.ThreadID != "":
		c.Spec.Thread, c.Spec.SessionID = threadOf(key, req.ThreadID), req.ThreadID
	case s.opts.Sessions:
		c.ThreadPrefix = threadOf(key, "")
	}
	if e := s.webhookOf(&c.Spec, r, req.Webhook); e != nil {
		writeError(w, e)
		return
	}
	c, err := s.opts.Runs.AddCron(r.Context(), key, c)
	if err != nil {
		s.queueFailed(w, r, err)
		return
	}
	w.Header().Set("Location", "/v1/crons/"+c.ID)
	writeJSON(w, http.StatusCreated, viewOfCron(c))
}

// crons answers GET /v1/crons: the key's crons, the next to fire first.
func (s *Server) crons(w http.ResponseWriter, r *http.Request, key string) {
	list, err := s.opts.Runs.Crons(r.Context(), key)
	if err != nil {
		s.queueFailed(w, r, err)
		return
	}
	views := make([]cronView, 0, len(list))
	for _, c := range list {
		views = append(views, viewOfCron(c))
	}
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": views})
}

// deleteCron answers DELETE /v1/crons/{id}.
func (s *Server) deleteCron(w http.ResponseWriter, r *http.Request, key string) {
	id := r.PathValue("id")
	err := s.opts.Runs.DeleteCron(r.Context(), key, id)
	if errors.Is(err, runs.ErrNotFound) {
		writeError(w, &apiError{Status: http.StatusNotFound, Type: typeInvalidRequest, Param: "id", Code: "cron_not_found", Message: "no cron " + id + " for this API key"})
		return
	}
	if err != nil {
		s.queueFailed(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": id, "object": "cron.deleted", "deleted": true})
}

func (s *Server) queueFailed(w http.ResponseWriter, r *http.Request, err error) {
	s.opts.Log.Error().Str("request", recordOf(r).id).Err(err).Msg("the queue failed")
	writeError(w, &apiError{Status: http.StatusServiceUnavailable, Type: typeServer, Code: "queue_unavailable",
		Message: "the queue could not be reached; try again (request " + recordOf(r).id + ")"})
}
