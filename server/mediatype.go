package server

import (
	"fmt"
	"mime"
	"net/http"
)

// jsonPosts refuses a POST whose body is not declared application/json.
// A page of another origin can send text/plain, form or multipart bodies
// without a CORS preflight, so a server that read them would run turns
// for any page its user opens; application/json needs the preflight,
// which this server never grants. Other methods pass: they change nothing.
func jsonPosts(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		ct := r.Header.Get("Content-Type")
		if mt, _, err := mime.ParseMediaType(ct); err == nil && mt == "application/json" {
			next.ServeHTTP(w, r)
			return
		}
		msg := "Content-Type: missing"
		if ct != "" {
			msg = fmt.Sprintf("Content-Type: %q is not accepted", ct)
		}
		writeError(w, &apiError{Status: http.StatusUnsupportedMediaType, Type: typeInvalidRequest, Param: "Content-Type", Code: "unsupported_media_type",
			Message: msg + "; send the body as JSON with Content-Type: application/json"})
	})
}
