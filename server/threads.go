package server

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/checkpoint"
)

// threadView is a session as GET /v1/threads/{id} shows it: its turns as
// their asker was shown them (agent.TurnRecord), and the same as plain
// messages (the question, then the answer as sent) for clients that want
// only the conversation.
type threadView struct {
	ID       string             `json:"id"`
	Object   string             `json:"object"` // thread
	Turn     int                `json:"turn"`
	Turns    []agent.TurnRecord `json:"turns"`
	Messages []threadEntry      `json:"messages"`
	HasMore  bool               `json:"has_more"`
	// Cursor, with has_more, gives the turns before these: ?cursor=.
	Cursor string `json:"cursor,omitempty"`
	// PendingReview is the review the session's last turn waits for.
	PendingReview *agent.PendingReview `json:"pending_review,omitempty"`
}

type threadEntry struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// defaultThreadTurns is how many of a thread's last turns are shown
// unless ?limit= says otherwise.
const defaultThreadTurns = 20

// thread shows one of the key's sessions, a page of its turns (the last
// ones, or those before ?cursor=), oldest first: every turn the thread
// keeps, whatever of it the model still reads.
func (s *Server) thread(w http.ResponseWriter, r *http.Request, key string) {
	session := r.PathValue("id")
	if !validSession(session) {
		writeError(w, invalid("id", "invalid_value", "id: 1 to %d letters, digits, '-', '_', '.' or ':'", maxSessionID))
		return
	}
	limit := defaultThreadTurns
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > s.opts.MaxMessages {
			writeError(w, invalid("limit", "invalid_value", "limit: a number of turns from 1 to %d", s.opts.MaxMessages))
			return
		}
		limit = n
	}
	recordOf(r).session = session
	notFound := &apiError{Status: http.StatusNotFound, Type: typeInvalidRequest, Param: "id", Code: "thread_not_found", Message: "thread " + session + ": not found"}
	if !s.opts.Sessions {
		writeError(w, notFound)
		return
	}
	cursor := r.URL.Query().Get("cursor")
	page, err := s.agent.Record(r.Context(), threadOf(key, session), agent.RecordOptions{Limit: limit, Cursor: cursor})
	switch {
	case errors.Is(err, checkpoint.ErrNotFound):
		writeError(w, notFound)
		return
	case err != nil && cursor != "":
		writeError(w, invalid("cursor", "invalid_value", "cursor: %v", err))
		return
	case err != nil:
		s.opts.Log.Error().Err(err).Str("request", recordOf(r).id).Msg("reading a thread")
		writeError(w, internalError(recordOf(r).id))
		return
	}
	view := threadView{ID: session, Object: "thread", Turns: page.Turns, Messages: []threadEntry{}, HasMore: page.Cursor != "", Cursor: page.Cursor}
	for _, t := range page.Turns {
		view.Turn = max(view.Turn, t.Turn)
		view.Messages = append(view.Messages, threadEntry{Role: "user", Content: t.Question})
		if t.Status == agent.TurnAnswered && t.Answer != "" {
			view.Messages = append(view.Messages, threadEntry{Role: "assistant", Content: t.Answer})
		}
		if t.Status == agent.TurnInterrupted {
			view.PendingReview = t.Pending
		}
	}
	if cursor == "" && len(page.Turns) > 0 {
		recordOf(r).turn = view.Turn
	}
	writeJSON(w, http.StatusOK, view)
}
