package server

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/runs"
)

// Human review over the API (guardian.human_review): a turn whose draft
// is held answers with its interrupt (/v1/turns: status "interrupted";
// chat completions: the error review_pending); reviewers list the drafts
// that wait (GET /v1/reviews) and answer one (POST
// /v1/threads/{id}/resume), which runs the rest of the turn; the asker
// reads the outcome on the thread (GET /v1/threads/{id}).

// reviewerSet holds the ids of the keys that may review.
type reviewerSet map[string]bool

func newReviewerSet(keys []string) reviewerSet {
	set := reviewerSet{}
	for _, key := range keys {
		if key = strings.TrimSpace(key); key != "" {
			set[keyID(sha256.Sum256([]byte(key)))] = true
		}
	}
	return set
}

// canReview says whether a key may answer reviews: a reviewer key, or
// anyone on a server without keys (which serve binds to loopback only).
func (s *Server) canReview(key string) bool { return key == anonymous || s.reviewers[key] }

// reviewRef names a held thread for reviewers, who are not its owner:
// OWNER~SESSION, or ~THREAD for a thread the agent made itself
// (runs.ReviewThreadID, which the runs a worker holds for review give).
func reviewRef(thread string) string { return runs.ReviewThreadID(thread) }

// threadOfRef is the thread an id of POST /v1/threads/{id}/resume names:
// OWNER~SESSION as GET /v1/reviews gives it, or the key's own session.
func threadOfRef(key, id string) (string, bool) {
	owner, session, ok := strings.Cut(id, "~")
	if !ok {
		return threadOf(key, id), validSession(id)
	}
	if !validSession(session) || strings.ContainsAny(owner, "/~") || len(owner) > maxSessionID {
		return "", false
	}
	if owner == "" {
		return session, true
	}
	return threadOf(owner, session), true
}

// interruptedTurn is a turn that waits for a person's review, as
// /v1/turns answers it (and a stream's "interrupted" event).
type interruptedTurn struct {
	Object string `json:"object"` // turn
	Status string `json:"status"` // interrupted
	// SessionID is the asker's session: GET /v1/threads/{session_id}
	// shows the outcome once the review is done.
	SessionID string `json:"session_id"`
	// ThreadID is the thread as reviewers name it (GET /v1/reviews, POST
	// /v1/threads/{thread_id}/resume).
	ThreadID      string               `json:"thread_id"`
	Turn          int                  `json:"turn"`
	InterruptID   string               `json:"interrupt_id"`
	PendingReview *agent.PendingReview `json:"pending_review"`
}

// heldTurn is the interrupt a paused turn waits on; false when err is no
// pause for review, or the pause cannot be read back (then logged).
func (s *Server) heldTurn(ctx context.Context, r *http.Request, err error) (interruptedTurn, bool) {
	thread, _, ok := agent.Paused(err)
	if !ok {
		return interruptedTurn{}, false
	}
	p, rerr := s.agent.PendingReview(context.WithoutCancel(ctx), thread)
	if rerr != nil || p == nil {
		s.opts.Log.Error().Err(rerr).Str("request", recordOf(r).id).Str("thread", thread).Msg("reading a held draft")
		return interruptedTurn{}, false
	}
	_, session, _ := strings.Cut(thread, "/")
	s.opts.Log.Info().Str("request", recordOf(r).id).Str("thread", reviewRef(thread)).Str("interrupt", p.InterruptID).Msg("turn held for human review")
	recordOf(r).turn = p.Turn
	return interruptedTurn{Object: "turn", Status: "interrupted", SessionID: session, ThreadID: reviewRef(thread), Turn: p.Turn,
		InterruptID: p.InterruptID, PendingReview: p}, true
}

// interrupted answers a turn held for review with its interrupt (200:
// the turn did what it should); false when err is no such pause.
func (s *Server) interrupted(w http.ResponseWriter, r *http.Request, err error) bool {
	held, ok := s.heldTurn(r.Context(), r, err)
	if !ok {
		return false
	}
	extendWrite(w)
	writeJSON(w, http.StatusOK, held)
	return true
}

// reviewPending is the error of a chat completion held for review: the
// OpenAI shape has no place for a pause, so it is an error a client can
// tell by its code, carrying what the asker follows (thread, interrupt).
func (s *Server) reviewPending(r *http.Request, err error) *apiError {
	held, ok := s.heldTurn(r.Context(), r, err)
	if !ok {
		thread, _, _ := agent.Paused(err)
		s.opts.Log.Error().Str("request", recordOf(r).id).Str("thread", thread).Msg("a held turn whose review cannot be read")
		return internalError(recordOf(r).id)
	}
	return &apiError{Status: http.StatusConflict, Type: typeReview, Code: "review_pending",
		Message: "the answer waits for a person's review (guardian.human_review): thread " + held.ThreadID + ", interrupt " + held.InterruptID +
			"; GET /v1/threads/" + held.SessionID + " shows the outcome",
		Extra: map[string]any{"thread_id": held.ThreadID, "session_id": held.SessionID, "interrupt_id": held.InterruptID, "turn": held.Turn}}
}

// typeReview is the error type of a turn held for review.
const typeReview = "review_pending"

// reviewSession gives a turn without a session one when drafts may be
// held: a held turn must be resumable, and its asker reads the outcome
// there. forgetSession drops it when the turn was not held.
func (s *Server) reviewSession(t *agent.Turn, key string) {
	if t.Thread != "" || !s.agent.Reviewing() || s.agent.Store() == nil {
		return
	}
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	session := "turn-" + hex.EncodeToString(b)
	t.Thread, t.SessionID = threadOf(key, session), session
}

// forgetSession deletes the session reviewSession made once its turn has
// ended without a pause: the turn had no session of its own to keep.
func (s *Server) forgetSession(t agent.Turn, err error) {
	_, session, _ := strings.Cut(t.Thread, "/")
	if !strings.HasPrefix(session, "turn-") || t.Lock != nil {
		return
	}
	if _, _, held := agent.Paused(err); held {
		return
	}
	if derr := s.agent.Store().Delete(context.Background(), t.Thread); derr != nil {
		s.opts.Log.Warn().Err(derr).Str("thread", t.Thread).Msg("deleting a turn's review session")
	}
	s.unbind(t.Thread)
}

// reviewItem is one draft waiting for review, as GET /v1/reviews lists it.
type reviewItem struct {
	Object string `json:"object"` // review
	// ThreadID names the thread for POST /v1/threads/{thread_id}/resume.
	ThreadID  string `json:"thread_id"`
	SessionID string `json:"session_id"`
	// Owner is the asker's key id ("" for the agent's own threads: a
	// worker's or an MCP call's turn).
	Owner string `json:"owner"`
	*agent.PendingReview
}

type reviewList struct {
	Object string       `json:"object"` // list
	Data   []reviewItem `json:"data"`
}

// Bounds of GET /v1/reviews: each thread costs a read of its latest
// checkpoint's head, each pending one a read of its state.
const (
	defaultReviewList = 50
	maxReviewList     = 200
	maxReviewScan     = 5000
)

// reviews lists the drafts that wait for a person, the newest first: a
// reviewer sees every thread's, any other key only its own sessions'.
func (s *Server) reviews(w http.ResponseWriter, r *http.Request, key string) {
	limit := defaultReviewList
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxReviewList {
			writeError(w, invalid("limit", "invalid_value", "limit: a number from 1 to %d", maxReviewList))
			return
		}
		limit = n
	}
	list := reviewList{Object: "list", Data: []reviewItem{}}
	store := s.agent.Store()
	if store == nil || !s.agent.Reviewing() {
		writeJSON(w, http.StatusOK, list)
		return
	}
	all, err := store.Threads(r.Context())
	if err != nil {
		s.opts.Log.Error().Err(err).Str("request", recordOf(r).id).Msg("listing threads for reviews")
		writeError(w, internalError(recordOf(r).id))
		return
	}
	reviewer := s.canReview(key)
	for i, t := range all {
		if i == maxReviewScan || len(list.Data) == limit {
			break
		}
		owner, session, ok := strings.Cut(t.Thread, "/")
		if !ok {
			owner, session = "", t.Thread
		}
		if !reviewer && owner != key {
			continue
		}
		p, err := s.agent.PendingReview(r.Context(), t.Thread)
		if errors.Is(err, checkpoint.ErrNotFound) {
			continue // deleted since it was listed
		}
		if err != nil {
			s.opts.Log.Error().Err(err).Str("request", recordOf(r).id).Msg("reading a held draft")
			writeError(w, internalError(recordOf(r).id))
			return
		}
		if p != nil {
			list.Data = append(list.Data, reviewItem{Object: "review", ThreadID: reviewRef(t.Thread), SessionID: session, Owner: owner, PendingReview: p})
		}
	}
	writeJSON(w, http.StatusOK, list)
}

// resumeRequest is the body of POST /v1/threads/{id}/resume.
type resumeRequest struct {
	InterruptID string `json:"interrupt_id"`
	Decision    string `json:"decision"`
	Text        string `json:"text"`
	Note        string `json:"note"`
	Stream      bool   `json:"stream"`
}

// resume answers a held draft and runs the rest of its turn: the result
// as /v1/turns gives it, or its events as a stream (stream: true).
func (s *Server) resume(w http.ResponseWriter, r *http.Request, key string) {
	if !s.canReview(key) {
		writeError(w, &apiError{Status: http.StatusForbidden, Type: typeInvalidRequest, Code: "reviewer_only",
			Message: "this API key may not review answers: reviews take a reviewer key (serve --reviewer-key)"})
		return
	}
	id := r.PathValue("id")
	thread, ok := threadOfRef(key, id)
	if !ok {
		writeError(w, invalid("id", "invalid_value", "id: a session id, or OWNER~SESSION as GET /v1/reviews gives it"))
		return
	}
	var req resumeRequest
	if e := decodeBody(w, r, s.opts.MaxBodyBytes, &req); e != nil {
		writeError(w, e)
		return
	}
	if strings.TrimSpace(req.InterruptID) == "" {
		writeError(w, invalid("interrupt_id", "missing_required_parameter", "interrupt_id: required (GET /v1/reviews gives it)"))
		return
	}
	answer := contracts.ReviewAnswer{Decision: req.Decision, Text: strings.TrimSpace(req.Text), Note: strings.TrimSpace(req.Note), Reviewer: key}
	if err := agent.CheckAnswer(answer); err != nil {
		param, _, _ := strings.Cut(err.Error(), ":")
		writeError(w, invalid(param, "invalid_value", "%s", err.Error()))
		return
	}
	if !s.opts.Sessions && !s.agent.Reviewing() {
		writeError(w, &apiError{Status: http.StatusNotFound, Type: typeInvalidRequest, Param: "id", Code: "review_not_found", Message: "this server holds no drafts for review"})
		return
	}
	lock, err := s.agent.LockThread(r.Context(), thread, "request "+recordOf(r).id)
	if busy := (*checkpoint.BusyError)(nil); errors.As(err, &busy) {
		writeError(w, &apiError{Status: http.StatusConflict, Type: typeInvalidRequest, Param: "id", Code: "thread_busy",
			Message: "thread " + id + ": another turn or review of it is running"})
		return
	}
	if err != nil {
		s.opts.Log.Error().Err(err).Str("request", recordOf(r).id).Msg("locking a thread for a review")
		writeError(w, internalError(recordOf(r).id))
		return
	}
	defer lock.Release()
	a, done, e := s.threadAgent(r, thread)
	if e != nil {
		writeError(w, e)
		return
	}
	defer done()
	r = r.WithContext(context.WithValue(r.Context(), chosenAgent{}, a))
	release, ok := s.admit(w, r, key)
	if !ok {
		return
	}
	defer release()
	ctx, cancel := s.turnContext(w, r)
	defer cancel()
	review := agent.Review{Thread: thread, InterruptID: req.InterruptID, Answer: answer, Lock: lock}
	if req.Stream {
		s.streamResumed(ctx, w, r, review)
		return
	}
	res, err := s.agentOf(ctx).ResumeReview(ctx, review)
	if err != nil {
		s.resumeFailed(w, r, id, err)
		return
	}
	recordOf(r).turn = res.Turn
	extendWrite(w)
	writeJSON(w, http.StatusOK, res)
}

// resumeFailed answers a resume that did not run: no such review waits,
// bad input, or the turn failed.
func (s *Server) resumeFailed(w http.ResponseWriter, r *http.Request, id string, err error) {
	if errors.Is(err, agent.ErrNoReview) || errors.Is(err, checkpoint.ErrNotFound) {
		writeError(w, &apiError{Status: http.StatusConflict, Type: typeInvalidRequest, Param: "interrupt_id", Code: "review_not_pending",
			Message: "thread " + id + ": no review waits there under that interrupt_id (answered already, or replaced by a new message); GET /v1/reviews lists those that wait"})
		return
	}
	if s.interrupted(w, r, err) {
		return
	}
	s.turnFailed(w, r, err)
}

// streamResumed sends the resumed turn's events as /v1/turns' stream does.
func (s *Server) streamResumed(ctx context.Context, w http.ResponseWriter, r *http.Request, review agent.Review) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := newSSE(w)
	events := make(chan contracts.Event, 64)
	review.Events = func(ev contracts.Event) {
		select {
		case events <- ev:
		case <-ctx.Done():
		}
	}
	var res contracts.StructuredResult
	var err error
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(events)
		res, err = s.agentOf(ctx).ResumeReview(ctx, review)
	}()
	sendErr := out.relay(events, cancel, func(ev contracts.Event) error { return out.event(string(ev.Kind), ev) })
	<-done
	switch {
	case sendErr != nil:
		recordOf(r).status = 499
		return
	case errors.Is(err, agent.ErrNoReview):
		out.fail(&apiError{Status: http.StatusConflict, Type: typeInvalidRequest, Param: "interrupt_id", Code: "review_not_pending",
			Message: "no review waits there under that interrupt_id; GET /v1/reviews lists those that wait"})
		return
	case err != nil:
		if held, ok := s.heldTurn(ctx, r, err); ok {
			if out.event("interrupted", held) == nil {
				_ = out.done()
			}
			return
		}
		if e := s.turnError(r, err); e != nil {
			out.fail(e)
		}
		return
	}
	recordOf(r).turn = res.Turn
	if out.event("result", res) == nil {
		_ = out.done()
	}
}
