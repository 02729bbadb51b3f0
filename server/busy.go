package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/checkpoint"
)

// holdSession takes the session's thread for the request's turn. A session
// runs one turn at a time, across replicas too (the lock is in the thread
// store): each turn reads the thread's last turn and writes the next, so two
// at once would write over each other. A busy session is refused with 409
// before anything is answered, streams included, unless the request's
// multitask_strategy says to wait for it or to stop its turn (multitask.go).
func (s *Server) holdSession(t *agent.Turn, r *http.Request, session, param string) *apiError {
	rec := recordOf(r)
	lock, err := s.agent.LockThread(r.Context(), t.Thread, "request "+rec.id)
	if busy := (*checkpoint.BusyError)(nil); errors.As(err, &busy) {
		var e *apiError
		if lock, e = s.whenBusy(r, t.Thread, session, param, busy); e != nil {
			return e
		}
		err = nil
	}
	if err != nil {
		s.opts.Log.Error().Err(err).Str("request", rec.id).Msg("locking a session")
		return internalError(rec.id)
	}
	t.Lock = lock
	s.watchStops(r, t.Thread, "request "+rec.id)
	// The turn frees the lock when it ends. A request that ends before its
	// turn starts (refused with 429, or a queued run's, which a worker runs
	// later under a lock of its own) frees it here.
	context.AfterFunc(r.Context(), func() {
		if err := lock.Release(); err != nil {
			s.opts.Log.Warn().Err(err).Str("request", rec.id).Msg("unlocking a session")
		}
	})
	return nil
}

// sessionBusy is the 409 of a session whose other turn runs. It names that
// turn's request when a server runs it; the holder a command line or a
// worker gives names its host, which is the operator's to know, not the
// client's.
func sessionBusy(session, param, holder string) *apiError {
	running := "another turn of it is running"
	if id, ok := strings.CutPrefix(holder, "request "); ok {
		running = "its turn of request " + id + " is running"
	}
	return &apiError{Status: http.StatusConflict, Type: typeInvalidRequest, Param: param, Code: "session_busy",
		Message: fmt.Sprintf("session %s is busy: %s; a session runs one turn at a time, so send this one again once that turn has ended", session, running)}
}
