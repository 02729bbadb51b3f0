package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
)

// apiError is an error in OpenAI's shape: clients written for OpenAI show
// its message and read its type, param and code.
type apiError struct {
	Status  int    `json:"-"`
	Message string `json:"message"`
	Type    string `json:"type"`
	Param   string `json:"-"` // "" is sent as null
	Code    string `json:"-"` // "" is sent as null
	// RetryAfter, in seconds, is sent as Retry-After when above 0.
	RetryAfter int `json:"-"`
	// Extra are fields of the error besides OpenAI's (a held turn's thread).
	Extra map[string]any `json:"-"`
}

func (e *apiError) Error() string { return e.Message }

// OpenAI's error types.
const (
	typeInvalidRequest = "invalid_request_error"
	typeAuthentication = "authentication_error"
	typeRateLimit      = "rate_limit_error"
	typeServer         = "server_error"
)

// invalid is a 400 about one field of the request.
func invalid(param, code, format string, args ...any) *apiError {
	return &apiError{Status: http.StatusBadRequest, Type: typeInvalidRequest, Param: param, Code: code, Message: fmt.Sprintf(format, args...)}
}

// tooLarge is a 413 naming the limit that was passed.
func tooLarge(param, format string, args ...any) *apiError {
	return &apiError{Status: http.StatusRequestEntityTooLarge, Type: typeInvalidRequest, Param: param, Code: "too_large", Message: fmt.Sprintf(format, args...)}
}

// errorBody is the JSON of an error response or of an error in a stream.
func (e *apiError) body() map[string]any {
	nullable := func(s string) any {
		if s == "" {
			return nil
		}
		return s
	}
	body := map[string]any{"message": e.Message, "type": e.Type, "param": nullable(e.Param), "code": nullable(e.Code)}
	for k, v := range e.Extra {
		body[k] = v
	}
	return map[string]any{"error": body}
}

func writeError(w http.ResponseWriter, e *apiError) {
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	writeJSON(w, e.Status, e.body())
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil { // only a bug gets here: every value sent is plain data
		status = http.StatusInternalServerError
		b = []byte(`{"error":{"message":"the response could not be encoded","type":"server_error","param":null,"code":null}}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}
