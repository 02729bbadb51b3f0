package server

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/cloudwego/eino/schema"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/checkpoint"
)

// sessionHeader names the conversation a chat completion continues.
const sessionHeader = "X-Session-Id"

// maxSessionID bounds a session id; its characters are safe in any store key.
const maxSessionID = 128

func validSession(id string) bool {
	if id == "" || len(id) > maxSessionID {
		return false
	}
	for _, c := range []byte(id) {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == ':'
		if !ok {
			return false
		}
	}
	return true
}

// threadOf is the store's thread of a key's session. The key's id comes
// first, so that a session belongs to the key that made it: another key
// naming the same session names another thread, one it has no access to.
func threadOf(key, session string) string { return key + "/" + session }

// continueSession makes the turn continue the key's session, when one is
// named: the thread is the history, the request's earlier messages are not.
// The turn holds the session from here (holdSession): a busy one is a 409.
func (s *Server) continueSession(t *agent.Turn, r *http.Request, key, session, param string) *apiError {
	if session == "" {
		return nil
	}
	if !validSession(session) {
		return invalid(param, "invalid_value", "%s: 1 to %d letters, digits, '-', '_', '.' or ':'", param, maxSessionID)
	}
	if !s.opts.Sessions {
		return invalid(param, "sessions_unavailable", "%s: sessions need a thread store (threads.store), and this server keeps none", param)
	}
	t.Thread, t.SessionID, t.History, t.Number = threadOf(key, session), session, nil, 1
	recordOf(r).session = session
	return s.holdSession(t, r, session, param)
}

// threadSummary is one session as GET /v1/threads lists it.
type threadSummary struct {
	ID     string `json:"id"`
	Object string `json:"object"` // thread
	// Title is the session's first question, masked, on one line and cut;
	// "" when no turn of it has ended yet.
	Title string `json:"title"`
	Turn  int    `json:"turn"`
	// UpdatedAt is when the session's latest checkpoint was written (Unix seconds).
	UpdatedAt int64 `json:"updated_at"`
}

type threadList struct {
	Object string          `json:"object"` // list
	Data   []threadSummary `json:"data"`
}

// Bounds of GET /v1/threads: each listed session costs a read of its last
// turn (for its title), so the list is short by default and bounded.
const (
	defaultThreadList = 20
	maxThreadList     = 100
	maxTitleRunes     = 80
)

// threads lists the key's sessions, the most recently written first. The
// store lists every key's threads; only the caller's are read and shown.
func (s *Server) threads(w http.ResponseWriter, r *http.Request, key string) {
	limit := defaultThreadList
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxThreadList {
			writeError(w, invalid("limit", "invalid_value", "limit: a number from 1 to %d", maxThreadList))
			return
		}
		limit = n
	}
	if !s.opts.Sessions || s.agent.Store() == nil {
		writeError(w, &apiError{Status: http.StatusNotFound, Type: typeInvalidRequest, Code: "threads_unavailable",
			Message: "this server keeps no thread store it can list (threads.store)"})
		return
	}
	all, err := s.agent.Store().Threads(r.Context())
	if err != nil {
		s.opts.Log.Error().Err(err).Str("request", recordOf(r).id).Msg("listing threads")
		writeError(w, internalError(recordOf(r).id))
		return
	}
	list := threadList{Object: "list", Data: []threadSummary{}}
	prefix := threadOf(key, "")
	for _, t := range all {
		session, ok := strings.CutPrefix(t.Thread, prefix)
		if !ok || !validSession(session) {
			continue
		}
		sum, err := s.summary(r.Context(), t, session)
		if err != nil {
			s.opts.Log.Error().Err(err).Str("request", recordOf(r).id).Msg("reading a thread for the list")
			writeError(w, internalError(recordOf(r).id))
			return
		}
		if list.Data = append(list.Data, sum); len(list.Data) == limit {
			break
		}
	}
	writeJSON(w, http.StatusOK, list)
}

// summary is one session's line in the list: its first question is its
// title. A session whose only turn was cut mid-way has no title yet.
func (s *Server) summary(ctx context.Context, t checkpoint.ThreadInfo, session string) (threadSummary, error) {
	sum := threadSummary{ID: session, Object: "thread", UpdatedAt: t.Latest.Unix()}
	last, err := s.agent.LastTurn(ctx, t.Thread)
	switch {
	case errors.Is(err, checkpoint.ErrNotFound):
		return sum, nil
	case err != nil:
		return sum, err
	}
	sum.Turn = last.State.Turn
	for _, m := range agent.Carry(last.State.Messages, 1<<30) {
		if m.Role == schema.User {
			sum.Title = title(agent.MaskText(m.Content))
			break
		}
	}
	return sum, nil
}

// title is text on one line, cut to maxTitleRunes.
func title(text string) string {
	text = strings.Join(strings.Fields(text), " ")
	if r := []rune(text); len(r) > maxTitleRunes {
		return string(r[:maxTitleRunes-1]) + "…"
	}
	return text
}
