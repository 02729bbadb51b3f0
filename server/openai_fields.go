package server

import (
	"fmt"
	"net/http"

	"github.com/sgrgraph/sgrgraph/agent"
)

// openaiTurn checks a chat request and reads the turn it asks for. The
// served model is checked last, so that a request malformed in other ways
// learns of its fields first, as OpenAI's does.
func (s *Server) openaiTurn(req chatRequest) (agent.Turn, *apiError) {
	t, e := chatTurn(req, s.opts.MaxMessages)
	if e == nil {
		e = s.checkModel(*req.Model)
	}
	return t, e
}

// served is the one model this server answers as, as /v1/models lists it.
func (s *Server) served() modelInfo {
	return modelInfo{ID: s.opts.Model, Object: "model", OwnedBy: "sgrgraph"}
}

// checkModel refuses a model the server does not serve. Answering a
// request for gpt-4o with a support turn would let a misconfigured client
// believe it spoke to the model it named.
func (s *Server) checkModel(name string) *apiError {
	if name == s.opts.Model {
		return nil
	}
	return modelNotFound("model", "model: %q is not served here; this server answers as %q (GET /v1/models)", name, s.opts.Model)
}

func modelNotFound(param, format string, args ...any) *apiError {
	return &apiError{Status: http.StatusNotFound, Type: typeInvalidRequest, Param: param, Code: "model_not_found", Message: fmt.Sprintf(format, args...)}
}

// model answers GET /v1/models/{id}: the served model, or 404.
func (s *Server) model(w http.ResponseWriter, r *http.Request, _ string) {
	if id := r.PathValue("id"); id != s.opts.Model {
		writeError(w, modelNotFound("model", "model %q not found; this server answers as %q", id, s.opts.Model))
		return
	}
	writeJSON(w, http.StatusOK, s.served())
}
