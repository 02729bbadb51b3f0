package server

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/models"
)

// writeWindow is how long one write to a client may take: a client that
// reads slower than this is dropped rather than holding a turn's slot.
const writeWindow = 30 * time.Second

// chatCompletions answers POST /v1/chat/completions: one turn, as a
// completion or as a stream of chunks.
func (s *Server) chatCompletions(w http.ResponseWriter, r *http.Request, key string) {
	var req chatRequest
	if e := decodeBody(w, r, s.opts.MaxBodyBytes, &req); e != nil {
		writeError(w, e)
		return
	}
	t, shape, e := s.openaiTurn(req)
	// Memory (memory.enabled) is the key's: the request's user lives in
	// the key's space, the key itself when none is named.
	t.Tenant, t.User = key, req.User
	if err := agent.CheckMemoryIDs(t); e == nil && err != nil {
		e = invalid("user", "invalid_value", "%v", err)
	}
	if e == nil {
		r, e = withMultitask(r, req.MultitaskStrategy)
	}
	if e == nil {
		e = s.continueSession(&t, r, key, r.Header.Get(sessionHeader), sessionHeader)
	}
	if e != nil {
		writeError(w, e)
		return
	}
	withResult, e := wantsResult(r)
	if e != nil {
		writeError(w, e)
		return
	}
	s.reviewSession(&t, key)
	r, done, e := s.withAssistant(r, &t, key, s.chatAssistant(*req.Model), "model")
	if e != nil {
		writeError(w, e)
		return
	}
	defer done()
	t.SessionID = cmp.Or(t.SessionID, recordOf(r).id)
	release, ok := s.admit(w, r, key)
	if !ok {
		return
	}
	defer release()
	ctx, cancel := s.turnContext(w, r)
	defer cancel()
	reply := reply{id: "chatcmpl-" + newID(), created: time.Now().Unix(), model: s.opts.Model, withResult: withResult, shape: shape}
	if req.Stream {
		reply.includeUsage = req.StreamOptions != nil && req.StreamOptions.IncludeUsage
		s.stream(ctx, w, r, t, reply)
		return
	}
	res, err := s.run(ctx, t)
	if err != nil {
		s.turnFailed(w, r, err)
		return
	}
	recordOf(r).turn = res.Turn
	extendWrite(w)
	final := shape.apply(res)
	c := chatCompletion{ID: reply.id, Object: "chat.completion", Created: reply.created, Model: reply.model,
		Choices: []completionChoice{{Message: assistantMessage{Role: "assistant", Content: final.content}, FinishReason: final.finish}},
		Usage:   final.usage(res)}
	if withResult {
		c.SGRGraph = &res
	}
	writeJSON(w, http.StatusOK, c)
}

// turns answers POST /v1/turns with the turn's whole structured result.
func (s *Server) turns(w http.ResponseWriter, r *http.Request, key string) {
	var req turnRequest
	if e := decodeBody(w, r, s.opts.MaxBodyBytes, &req); e != nil {
		writeError(w, e)
		return
	}
	e := s.turnOf(&req)
	t := agent.Turn{SessionID: recordOf(r).id, Number: 1, Language: req.Language, Role: req.Role, QueryTraces: req.IncludeQueryTraces}
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
	if e != nil {
		writeError(w, e)
		return
	}
	s.reviewSession(&t, key)
	r, done, e := s.withAssistant(r, &t, key, req.Assistant, "assistant")
	if e != nil {
		writeError(w, e)
		return
	}
	defer done()
	release, ok := s.admit(w, r, key)
	if !ok {
		return
	}
	defer release()
	ctx, cancel := s.turnContext(w, r)
	defer cancel()
	if req.Stream {
		s.streamEvents(ctx, w, r, t)
		return
	}
	res, err := s.run(ctx, t)
	if err != nil {
		if !s.interrupted(w, r, err) {
			s.turnFailed(w, r, err)
		}
		return
	}
	recordOf(r).turn = res.Turn
	extendWrite(w)
	writeJSON(w, http.StatusOK, res)
}

// run runs one turn and returns its masked result. Every turn the server
// runs goes through run or runStream, which count it in the metrics.
func (s *Server) run(ctx context.Context, t agent.Turn) (contracts.StructuredResult, error) {
	done := s.metrics.turnStarted()
	defer done(contracts.StructuredResult{}, errTurnPanicked) // counts the turn if Run panics; else a no-op
	res, err := s.agentOf(ctx).Run(ctx, t)
	done(res, err)
	s.forgetSession(t, err)
	return res, err
}

var errTurnPanicked = errors.New("the turn panicked")

// runStream runs one turn in the background as agent.Stream does; its
// metrics are recorded when wait returns.
func (s *Server) runStream(ctx context.Context, t agent.Turn) (<-chan contracts.Event, func() (contracts.StructuredResult, error)) {
	done := s.metrics.turnStarted()
	events, wait := s.agentOf(ctx).Stream(ctx, t)
	return events, func() (contracts.StructuredResult, error) {
		res, err := wait()
		done(res, err)
		s.forgetSession(t, err)
		return res, err
	}
}

// turnOf checks a /v1/turns request's fields.
func (s *Server) turnOf(req *turnRequest) *apiError {
	if req.Message == nil {
		return invalid("message", "missing_required_parameter", "message: required")
	}
	if e := checkMessage(*req.Message, "message"); e != nil {
		return e
	}
	if e := checkLanguage(req.Language); e != nil {
		return e
	}
	if req.Role != "" && !s.opts.TrustClientRole {
		return invalid("role", "role_not_accepted", "role: this server does not take roles from clients (a client could pick the role with the fewest denials)")
	}
	return nil
}

// admit takes one of the turn slots of the request's budget (budgetOf),
// or answers 429.
func (s *Server) admit(w http.ResponseWriter, r *http.Request, key string) (release func(), ok bool) {
	budget := budgetOf(r, key)
	if !s.inFlight.acquire(budget) {
		whose := "this API key"
		if key == anonymous {
			whose = "this client address"
		}
		w.Header().Set("Retry-After", "1")
		writeError(w, &apiError{Status: http.StatusTooManyRequests, Type: typeRateLimit, Code: "rate_limit_exceeded",
			Message: "too many turns in flight for " + whose + ": the limit is " + strconv.Itoa(s.opts.MaxTurnsPerKey) + "; retry when one has finished"})
		return nil, false
	}
	return func() { s.inFlight.release(budget) }, true
}

// turnContext bounds the turn by TurnTimeout and ends it when the client
// goes away (the request's context). The body is read by now, so the
// server's read deadline is lifted: left in place it would cancel the
// request's context in the middle of a long turn.
func (s *Server) turnContext(w http.ResponseWriter, r *http.Request) (context.Context, context.CancelFunc) {
	_ = http.NewResponseController(w).SetReadDeadline(time.Time{}) // not every writer supports it (tests' recorders)
	return context.WithTimeout(r.Context(), s.opts.TurnTimeout)
}

// extendWrite gives the response its own write deadline, measured from
// now rather than from the request's start, as a turn may take minutes.
func extendWrite(w http.ResponseWriter) {
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(writeWindow))
}

// turnFailed answers a turn that returned an error; a client that went
// away gets nothing, as nothing can reach it.
func (s *Server) turnFailed(w http.ResponseWriter, r *http.Request, err error) {
	e := s.turnError(r, err)
	if e == nil {
		return
	}
	extendWrite(w)
	writeError(w, e)
}

// turnError is the error a client is told of a failed turn; nil when the
// client is gone. Details stay in the log: they may name files or hosts.
func (s *Server) turnError(r *http.Request, err error) *apiError {
	rec := recordOf(r)
	if e := s.stoppedError(r); e != nil {
		return e
	}
	if r.Context().Err() != nil {
		rec.status = 499 // nginx's "client closed request", for the log
		s.opts.Log.Info().Str("request", rec.id).Err(err).Msg("client went away; turn cancelled")
		return nil
	}
	if _, _, ok := agent.Paused(err); ok {
		return s.reviewPending(r, err)
	}
	if f, ok := models.FailureOf(err); ok {
		e := modelFailure(f)
		s.logFailure(r, f, e.Status)
		return e
	}
	if errors.Is(err, context.DeadlineExceeded) {
		s.opts.Log.Warn().Str("request", rec.id).Err(err).Msg("turn timed out")
		return &apiError{Status: http.StatusGatewayTimeout, Type: typeServer, Code: "timeout",
			Message: "the turn took longer than " + s.opts.TurnTimeout.String()}
	}
	s.opts.Log.Error().Str("request", rec.id).Err(err).Msg("turn failed")
	return internalError(rec.id)
}
