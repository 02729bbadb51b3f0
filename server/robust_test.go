package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPanicBecomesAnError(t *testing.T) {
	var log bytes.Buffer
	s := New(offline, Options{Log: zerolog.New(&log)})
	h := s.accessLog(s.recovered(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") })))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/", nil))
	assert.Equal(t, http.StatusInternalServerError, w.Code)
	var body struct{ Error apiError }
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &body))
	assert.Equal(t, "server_error", body.Error.Type)
	assert.Contains(t, body.Error.Message, w.Header().Get("X-Request-Id"), "the client can quote the request to the operator")
	assert.Contains(t, log.String(), `"panic":"boom"`)
	assert.Contains(t, log.String(), `"status":500`)
}

// FuzzChatRequest: whatever the body, the request is answered in OpenAI's
// error shape or reaches a turn; it never panics. Turns are not run: the
// parse and the checks are what a body reaches first.
func FuzzChatRequest(f *testing.F) {
	for _, seed := range []string{
		chatBody("user", question), chatBody("system", "x", "user", "hi", "assistant", "y", "user", "z"),
		`{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}]}`,
		`{"model":"m","messages":[{"role":"user","content":null}]}`, `{"model":1}`, `[]`, `null`, `{"messages":[null]}`,
		"{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"\xff\"}]}",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, body string) {
		w := httptest.NewRecorder()
		r := httptest.NewRequest(http.MethodPost, "/v1/chat/completions", strings.NewReader(body))
		var req chatRequest
		if e := decodeBody(w, r, 1<<20, &req); e != nil {
			require.GreaterOrEqual(t, e.Status, 400)
			return
		}
		turn, e := chatTurn(req, 200)
		if e != nil {
			require.Contains(t, []int{400, 413}, e.Status)
			require.NotEmpty(t, e.Param, "a request that parsed is refused for a field: %s", e.Message)
			return
		}
		require.NotEmpty(t, strings.TrimSpace(turn.Message))
	})
}
