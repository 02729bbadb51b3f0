package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/checkpoint"
)

// Assistants (Options.Assistants) are named, versioned configurations
// served beside the server's own: POST /v1/assistants makes one, or its
// next version; a turn names one (/v1/turns' assistant, chat completions'
// model, "name" or "name@version"); a conversation keeps the version its
// first turn ran, and a turn naming another is refused with 409.
//
// Making assistants takes a reviewer key (or a keyless loopback server):
// an assistant chooses the knowledge base folder the server reads, and the
// hosts the server's model and guard keys are sent to, so it is an
// operator's act, not an asker's. Every key may list and use them: names
// are per server.

// assistantRequest is the body of POST /v1/assistants.
type assistantRequest struct {
	Name   string          `json:"name"`
	Config json.RawMessage `json:"config"`
}

// assistantView is an assistant as GET /v1/assistants shows it.
type assistantView struct {
	Object   string                   `json:"object"` // assistant
	Name     string                   `json:"name"`
	Latest   int                      `json:"latest_version"`
	Versions []agent.AssistantVersion `json:"versions"`
}

type assistantList struct {
	Object string          `json:"object"` // list
	Data   []assistantView `json:"data"`
}

// assistantsOff is the answer of a server that serves no assistants.
var assistantsOff = &apiError{Status: http.StatusNotFound, Type: typeInvalidRequest, Code: "assistants_unavailable",
	Message: "this server serves no assistants: they are kept in its thread store (threads.store)"}

// createAssistant answers POST /v1/assistants: the new version, 201.
func (s *Server) createAssistant(w http.ResponseWriter, r *http.Request, key string) {
	if s.opts.Assistants == nil {
		writeError(w, assistantsOff)
		return
	}
	if !s.canReview(key) {
		writeError(w, &apiError{Status: http.StatusForbidden, Type: typeInvalidRequest, Code: "reviewer_only",
			Message: "this API key may not make assistants: an assistant picks the folders and hosts the server reads and calls, so it takes a reviewer key (serve --reviewer-key, or role reviewer in --keys)"})
		return
	}
	var req assistantRequest
	if e := decodeBody(w, r, s.opts.MaxBodyBytes, &req); e != nil {
		writeError(w, e)
		return
	}
	if req.Name == "" {
		writeError(w, invalid("name", "missing_required_parameter", "name: required"))
		return
	}
	if len(req.Config) == 0 {
		writeError(w, invalid("config", "missing_required_parameter", "config: required, an object of the config file's keys ({} takes the server's)"))
		return
	}
	v, err := s.opts.Assistants.Create(r.Context(), req.Name, req.Config, key)
	if err != nil {
		if e := assistantInputError(err); e != nil {
			writeError(w, e)
			return
		}
		s.opts.Log.Error().Err(err).Str("request", recordOf(r).id).Msg("keeping an assistant")
		writeError(w, internalError(recordOf(r).id))
		return
	}
	s.opts.Log.Info().Str("request", recordOf(r).id).Str("assistant", v.Name).Int("version", v.Version).Msg("assistant version made")
	writeJSON(w, http.StatusCreated, v)
}

// assistantInputError is the 400 of a bad name or configuration, naming
// the field; nil for a failure of the store.
func assistantInputError(err error) *apiError {
	msg := err.Error()
	field, _, _ := strings.Cut(msg, ":")
	if field == "name" || field == "config" || strings.HasPrefix(field, "config.") {
		return invalid(field, "invalid_value", "%s", msg)
	}
	return nil
}

// assistants answers GET /v1/assistants: every assistant with its versions.
func (s *Server) assistants(w http.ResponseWriter, r *http.Request, _ string) {
	if s.opts.Assistants == nil {
		writeError(w, assistantsOff)
		return
	}
	names, err := s.opts.Assistants.Names(r.Context())
	list := assistantList{Object: "list", Data: []assistantView{}}
	for _, name := range names {
		if err != nil {
			break
		}
		var v assistantView
		if v, err = s.assistantView(r.Context(), name); errors.Is(err, agent.ErrNoAssistant) {
			err = nil // deleted since it was listed
			continue
		}
		list.Data = append(list.Data, v)
	}
	if err != nil {
		s.opts.Log.Error().Err(err).Str("request", recordOf(r).id).Msg("listing assistants")
		writeError(w, internalError(recordOf(r).id))
		return
	}
	writeJSON(w, http.StatusOK, list)
}

// assistant answers GET /v1/assistants/{name}.
func (s *Server) assistant(w http.ResponseWriter, r *http.Request, _ string) {
	if s.opts.Assistants == nil {
		writeError(w, assistantsOff)
		return
	}
	name := r.PathValue("name")
	if err := agent.CheckAssistantName(name); err != nil {
		writeError(w, invalid("name", "invalid_value", "name: %v", err))
		return
	}
	v, err := s.assistantView(r.Context(), name)
	switch {
	case errors.Is(err, agent.ErrNoAssistant):
		writeError(w, &apiError{Status: http.StatusNotFound, Type: typeInvalidRequest, Param: "name", Code: "assistant_not_found", Message: "assistant " + name + ": not found"})
	case err != nil:
		s.opts.Log.Error().Err(err).Str("request", recordOf(r).id).Msg("reading an assistant")
		writeError(w, internalError(recordOf(r).id))
	default:
		writeJSON(w, http.StatusOK, v)
	}
}

func (s *Server) assistantView(ctx context.Context, name string) (assistantView, error) {
	versions, err := s.opts.Assistants.Versions(ctx, name)
	if err != nil {
		return assistantView{}, err
	}
	return assistantView{Object: "assistant", Name: name, Latest: versions[len(versions)-1].Version, Versions: versions}, nil
}

// chosenAgent carries the agent a request's turn runs (an assistant's)
// in its context; s.agent when none is there.
type chosenAgent struct{}

func (s *Server) agentOf(ctx context.Context) *agent.Agent {
	if a, ok := ctx.Value(chosenAgent{}).(*agent.Agent); ok {
		return a
	}
	return s.agent
}

// withAssistant picks the agent of a turn: the assistant named (param
// says where: "assistant" or "model"), or the one its conversation ran;
// the server's own when neither. A conversation keeps the version its
// first turn ran: naming another assistant or version is a 409, and so is
// naming one on a conversation the server's configuration ran. The
// returned request carries the agent (agentOf); release gives it back
// once the turn is over.
func (s *Server) withAssistant(r *http.Request, t *agent.Turn, key, named, param string) (*http.Request, func(), *apiError) {
	r, release, e := s.pickAssistant(r, t, key, named, param)
	if e != nil && t.Lock != nil {
		// Free the session now, not when the request's context ends: the
		// client may send its next turn as soon as it reads the refusal.
		_ = t.Lock.Release()
	}
	return r, release, e
}

func (s *Server) pickAssistant(r *http.Request, t *agent.Turn, key, named, param string) (*http.Request, func(), *apiError) {
	noop := func() {}
	ref, use, bind, e := s.assistantOf(r, t, named, param)
	if e != nil || !use {
		return r, noop, e
	}
	as, ctx := s.opts.Assistants, r.Context()
	a, at, release, err := as.Agent(ctx, ref)
	if e := s.assistantFailed(r, err, ref, named, param); e != nil {
		return r, noop, e
	}
	if t.Thread == "" && a.Reviewing() && a.Store() != nil {
		// A held draft must be resumable with this assistant: the turn
		// gets a session of its own (as reviewSession does), bound to it.
		b := make([]byte, 8)
		_, _ = rand.Read(b)
		session := "turn-" + hex.EncodeToString(b)
		t.Thread, t.SessionID, bind = threadOf(key, session), session, true
	}
	if bind {
		if err := as.Bind(ctx, t.Thread, at); err != nil {
			release()
			return r, noop, s.storeFailed(r, err, "keeping a conversation's assistant")
		}
	}
	return r.WithContext(context.WithValue(ctx, chosenAgent{}, a)), release, nil
}

// assistantOf is the assistant a turn runs: the one named (param says
// where: "assistant" or "model"), or the one its conversation ran; use is
// false for the server's own configuration. A conversation keeps the
// version its first turn ran: naming another assistant or version is a
// 409, and so is naming one on a conversation the server's configuration
// ran. bind says the conversation has not run yet and is to keep ref.
func (s *Server) assistantOf(r *http.Request, t *agent.Turn, named, param string) (ref agent.Ref, use, bind bool, e *apiError) {
	as := s.opts.Assistants
	if named == "" && (as == nil || t.Thread == "") {
		return ref, false, false, nil
	}
	if as == nil {
		return ref, false, false, invalid(param, "assistants_unavailable", "%s: this server serves no assistants", param)
	}
	if named != "" {
		var err error
		if ref, err = agent.ParseRef(named); err != nil {
			return ref, false, false, invalid(param, "invalid_value", "%s: %v", param, err)
		}
	}
	if t.Thread == "" {
		return ref, true, false, nil
	}
	ctx := r.Context()
	bound, ok, err := as.Bound(ctx, t.Thread)
	if err != nil {
		return ref, false, false, s.storeFailed(r, err, "reading a conversation's assistant")
	}
	switch {
	case ok && named != "" && (ref.Name != bound.Name || ref.Version != 0 && ref.Version != bound.Version):
		return ref, false, false, &apiError{Status: http.StatusConflict, Type: typeInvalidRequest, Param: param, Code: "assistant_mismatch",
			Message: param + ": this conversation runs assistant " + bound.String() + ", not " + ref.String() + "; start another session for another assistant"}
	case ok:
		return bound, true, false, nil
	case named == "":
		return ref, false, false, nil // the server's own, as before
	}
	_, err = s.agent.Store().Latest(ctx, t.Thread)
	if err == nil {
		return ref, false, false, &apiError{Status: http.StatusConflict, Type: typeInvalidRequest, Param: param, Code: "assistant_mismatch",
			Message: param + ": this conversation runs the server's own configuration, not assistant " + ref.String() + "; start another session for an assistant"}
	}
	if !errors.Is(err, checkpoint.ErrNotFound) {
		return ref, false, false, s.storeFailed(r, err, "reading a conversation")
	}
	return ref, true, true, nil
}

// assistantFailed is the answer of an assistant that could not be read
// or built (err); nil when err is nil.
func (s *Server) assistantFailed(r *http.Request, err error, ref agent.Ref, named, param string) *apiError {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, agent.ErrNoAssistant) && param == "model":
		return modelNotFound(param, "model: %q is neither this server's model (%q) nor an assistant's (GET /v1/models)", named, s.opts.Model)
	case errors.Is(err, agent.ErrNoAssistant):
		return &apiError{Status: http.StatusNotFound, Type: typeInvalidRequest, Param: param, Code: "assistant_not_found", Message: param + ": " + err.Error()}
	}
	s.opts.Log.Error().Err(err).Str("request", recordOf(r).id).Str("assistant", ref.String()).Msg("building an assistant")
	return &apiError{Status: http.StatusServiceUnavailable, Type: typeServer, Param: param, Code: "assistant_unavailable",
		Message: "assistant " + ref.String() + " could not be built; the server's log says why (request " + recordOf(r).id + ")"}
}

// chatAssistant is the assistant a chat completion's model names: ""
// (the server's own) for the server's model name, else an assistant's
// name, or name@version (checkModel let no other through).
func (s *Server) chatAssistant(model string) string {
	if s.opts.Assistants == nil || model == s.opts.Model {
		return ""
	}
	return model
}

// assistantModel says whether a model id names an assistant's version.
func (s *Server) assistantModel(ctx context.Context, id string) bool {
	ref, err := agent.ParseRef(id)
	if err != nil || s.opts.Assistants == nil {
		return false
	}
	_, err = s.opts.Assistants.Version(ctx, ref)
	return err == nil
}

// assistantModels are the assistants as /v1/models lists them; a store
// that fails lists none, with a log line.
func (s *Server) assistantModels(r *http.Request) []modelInfo {
	if s.opts.Assistants == nil {
		return nil
	}
	names, err := s.opts.Assistants.Names(r.Context())
	if err != nil {
		s.opts.Log.Error().Err(err).Str("request", recordOf(r).id).Msg("listing assistants as models")
	}
	out := make([]modelInfo, 0, len(names))
	for _, name := range names {
		out = append(out, modelInfo{ID: name, Object: "model", OwnedBy: "sgrgraph"})
	}
	return out
}

// threadAgent is the agent that resumes a thread: its assistant's when
// it ran one.
func (s *Server) threadAgent(r *http.Request, thread string) (*agent.Agent, func(), *apiError) {
	as := s.opts.Assistants
	if as == nil {
		return s.agent, func() {}, nil
	}
	ref, ok, err := as.Bound(r.Context(), thread)
	if err != nil {
		return nil, nil, s.storeFailed(r, err, "reading a conversation's assistant")
	}
	if !ok {
		return s.agent, func() {}, nil
	}
	a, _, release, err := as.Agent(r.Context(), ref)
	if err != nil {
		s.opts.Log.Error().Err(err).Str("request", recordOf(r).id).Str("assistant", ref.String()).Msg("building an assistant to resume")
		return nil, nil, &apiError{Status: http.StatusServiceUnavailable, Type: typeServer, Code: "assistant_unavailable",
			Message: "assistant " + ref.String() + " of this thread could not be built; the server's log says why (request " + recordOf(r).id + ")"}
	}
	return a, release, nil
}

// unbind forgets the assistant of a conversation that goes.
func (s *Server) unbind(thread string) {
	if s.opts.Assistants == nil {
		return
	}
	if err := s.opts.Assistants.Unbind(context.Background(), thread); err != nil {
		s.opts.Log.Warn().Err(err).Str("thread", thread).Msg("forgetting a conversation's assistant")
	}
}

// storeFailed logs a thread store's failure and is the 500 it answers.
func (s *Server) storeFailed(r *http.Request, err error, doing string) *apiError {
	s.opts.Log.Error().Err(err).Str("request", recordOf(r).id).Msg(doing)
	return internalError(recordOf(r).id)
}

// runAssistant is the assistant's version a run names, or its
// conversation ran ("" for the server's own configuration), as the
// worker reads it (runs.Spec.Assistant): always with its version, so that
// a version made while the run waits in the queue does not answer it. A
// conversation that has not run yet is bound to it here, as /v1/turns
// binds it; the same 409s apply.
func (s *Server) runAssistant(r *http.Request, t agent.Turn, named string) (string, *apiError) {
	ref, use, bind, e := s.assistantOf(r, &t, named, "assistant")
	if e != nil || !use {
		return "", e
	}
	v, err := s.opts.Assistants.Version(r.Context(), ref)
	if e := s.assistantFailed(r, err, ref, named, "assistant"); e != nil {
		return "", e
	}
	at := agent.Ref{Name: v.Name, Version: v.Version}
	if bind {
		if err := s.opts.Assistants.Bind(r.Context(), t.Thread, at); err != nil {
			return "", s.storeFailed(r, err, "keeping a conversation's assistant")
		}
	}
	return at.String(), nil
}
