package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/mcpserver"
)

// errorOf reads an error response and checks its OpenAI shape.
func errorOf(t *testing.T, res *http.Response) (message, typ string, param, code any) {
	t.Helper()
	var body struct {
		Error map[string]any `json:"error"`
	}
	require.Equal(t, "application/json", res.Header.Get("Content-Type"))
	require.NoError(t, json.NewDecoder(res.Body).Decode(&body))
	require.NotNil(t, body.Error, "every error has OpenAI's shape")
	for _, k := range []string{"message", "type", "param", "code"} {
		assert.Contains(t, body.Error, k)
	}
	msg, _ := body.Error["message"].(string)
	typ, _ = body.Error["type"].(string)
	return msg, typ, body.Error["param"], body.Error["code"]
}

func chatBody(messages ...string) string {
	var ms []map[string]string
	for i := 0; i+1 < len(messages); i += 2 {
		ms = append(ms, map[string]string{"role": messages[i], "content": messages[i+1]})
	}
	b, _ := json.Marshal(map[string]any{"model": "sgrgraph", "messages": ms})
	return string(b)
}

func TestRequestsRefused(t *testing.T) {
	ts := serve(t, offline, Options{APIKeys: []string{"k1", "k2"}, MaxBodyBytes: 64 << 10, MaxMessages: 5})
	chat := ts.URL + "/v1/chat/completions"
	tests := []struct {
		name    string
		key     string
		body    string
		header  []string
		status  int
		param   any // nil: null
		message string
	}{
		{"no key", "", chatBody("user", question), nil, 401, nil, "API key"},
		{"wrong key", "k3", chatBody("user", question), nil, 401, nil, "API key"},
		{"a key's prefix", "k", chatBody("user", question), nil, 401, nil, "API key"},
		{"body too large", "k1", chatBody("user", strings.Repeat("a", 70<<10)), nil, 413, nil, "over the limit of 65536 bytes"},
		{"message too long", "k1", chatBody("user", strings.Repeat("é", agent.MaxMessageRunes+1)), nil, 413, "messages[0].content", fmt.Sprintf("over the limit of %d", agent.MaxMessageRunes)},
		{"malformed JSON", "k1", `{"model": "sgrgraph", "messages": [`, nil, 400, nil, "not valid JSON"},
		{"empty body", "k1", ``, nil, 400, nil, "empty"},
		{"wrong type", "k1", `{"model": "sgrgraph", "messages": "hi"}`, nil, 400, "messages", "must be an array"},
		{"invalid UTF-8", "k1", `{"model":"sgrgraph","messages":[{"role":"user","content":"ok"},{"role":"user","content":"bad ` + "\xff\xfe" + `"}]}`, nil, 400, "messages[1].content", "not valid UTF-8"},
		{"unknown role", "k1", chatBody("user", "hi", "wizard", "abracadabra", "user", question), nil, 400, "messages[1].role", `"wizard" is not one of`},
		{"tool message without its call", "k1", chatBody("tool", "42", "user", question), nil, 400, "messages[0].tool_call_id", "required"},
		{"last message not user", "k1", chatBody("user", question, "assistant", "an answer"), nil, 400, "messages[1].role", "must be a user message"},
		{"missing messages", "k1", `{"model":"sgrgraph"}`, nil, 400, "messages", "required"},
		{"no messages", "k1", `{"model":"sgrgraph","messages":[]}`, nil, 400, "messages", "at least one"},
		{"missing role", "k1", `{"model":"sgrgraph","messages":[{"content":"hi"}]}`, nil, 400, "messages[0].role", "required"},
		{"missing model", "k1", `{"messages":[{"role":"user","content":"hi"}]}`, nil, 400, "model", "required"},
		{"empty message", "k1", chatBody("user", "   "), nil, 400, "messages[0].content", "must not be empty"},
		{"image part", "k1", `{"model":"m","messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"x"}}]}]}`, nil, 400, "messages[0].content[0].type", "not supported"},
		{"too many messages", "k1", chatBody("user", "1", "assistant", "2", "user", "3", "assistant", "4", "user", "5", "assistant", "6", "user", "7"), nil, 400, "messages", "over the limit of 5"},
		{"bad session id", "k1", chatBody("user", question), []string{"X-Session-Id", "../etc"}, 400, "X-Session-Id", "letters, digits"},
		{"unknown result header", "k1", chatBody("user", question), []string{resultHeader, "yes"}, 400, resultHeader, `"yes" is not known`},
		{"several choices", "k1", `{"model":"m","n":3,"messages":[{"role":"user","content":"hi"}]}`, nil, 400, "n", "n must be 1"},
		{"temperature a string", "k1", `{"model":"m","temperature":"hot","messages":[{"role":"user","content":"hi"}]}`, nil, 400, "temperature", "must be a number"},
		{"temperature too high", "k1", `{"model":"m","temperature":3,"messages":[{"role":"user","content":"hi"}]}`, nil, 400, "temperature", "outside 0..2"},
		{"top_p too high", "k1", `{"model":"m","top_p":1.5,"messages":[{"role":"user","content":"hi"}]}`, nil, 400, "top_p", "outside 0..1"},
		{"sessions without a store", "k1", chatBody("user", question), []string{"X-Session-Id", "s1"}, 400, "X-Session-Id", "threads.store"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := post(t, chat, tc.key, tc.body, tc.header...)
			assert.Equal(t, tc.status, res.StatusCode)
			msg, typ, param, _ := errorOf(t, res)
			assert.Contains(t, msg, tc.message)
			assert.Equal(t, tc.param, param)
			if tc.status == 401 {
				assert.Equal(t, "authentication_error", typ)
			} else {
				assert.Equal(t, "invalid_request_error", typ)
			}
		})
	}

	t.Run("turns endpoint", func(t *testing.T) {
		for _, tc := range []struct {
			body, param, message string
		}{
			{`{}`, "message", "required"},
			{`{"message":"hi","language":"de"}`, "language", "not en or ru"},
			{`{"message":"hi","role":"admin"}`, "role", "does not take roles"},
			{`{"message":"hi","session_id":"s1"}`, "session_id", "threads.store"},
		} {
			res := post(t, ts.URL+"/v1/turns", "k2", tc.body)
			assert.Equal(t, http.StatusBadRequest, res.StatusCode, tc.body)
			msg, _, param, _ := errorOf(t, res)
			assert.Equal(t, tc.param, param)
			assert.Contains(t, msg, tc.message)
		}
	})

	t.Run("unknown URL and wrong method", func(t *testing.T) {
		res, err := http.Get(chat)
		require.NoError(t, err)
		defer res.Body.Close()
		assert.Equal(t, http.StatusMethodNotAllowed, res.StatusCode)
		assert.Equal(t, "POST", res.Header.Get("Allow"))
		errorOf(t, res)
		res2 := post(t, ts.URL+"/v2/anything", "k1", "{}")
		assert.Equal(t, http.StatusNotFound, res2.StatusCode)
		errorOf(t, res2)
	})

	t.Run("probes need no key", func(t *testing.T) {
		for _, path := range []string{"/healthz", "/readyz"} {
			res, err := http.Get(ts.URL + path)
			require.NoError(t, err)
			res.Body.Close()
			assert.Equal(t, http.StatusOK, res.StatusCode, path)
		}
	})
}

func TestReadyzWhileDraining(t *testing.T) {
	s := New(offline, Options{})
	ts := serveHandler(t, s)
	s.Drain()
	res, err := http.Get(ts.URL + "/readyz")
	require.NoError(t, err)
	assert.Equal(t, http.StatusServiceUnavailable, res.StatusCode)
	errorOf(t, res)
	res.Body.Close()
}

func TestTurnsPerKeyBounded(t *testing.T) {
	held, started := heldAgent(t)
	s := New(held, Options{APIKeys: []string{"k1", "k2"}, MaxTurnsPerKey: 2})
	ts := serveHandler(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errs := make(chan error, 2)
	for range 2 {
		go func() {
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL+"/v1/chat/completions", strings.NewReader(chatBody("user", question)))
			req.Header.Set("Authorization", "Bearer k1")
			req.Header.Set("Content-Type", "application/json")
			res, err := http.DefaultClient.Do(req)
			if err == nil {
				res.Body.Close()
			}
			errs <- err
		}()
	}
	for range 2 {
		select {
		case <-started:
		case <-time.After(10 * time.Second):
			t.Fatal("the held turns did not start")
		}
	}
	res := post(t, ts.URL+"/v1/chat/completions", "k1", chatBody("user", question))
	assert.Equal(t, http.StatusTooManyRequests, res.StatusCode)
	assert.Equal(t, "1", res.Header.Get("Retry-After"))
	msg, typ, _, code := errorOf(t, res)
	assert.Contains(t, msg, "the limit is 2")
	assert.Equal(t, "rate_limit_error", typ)
	assert.Equal(t, "rate_limit_exceeded", code)

	// Another key has its own budget: its turn gets in (and is held too).
	go func() {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL+"/v1/turns", strings.NewReader(`{"message":"hi"}`))
		req.Header.Set("Authorization", "Bearer k2")
		req.Header.Set("Content-Type", "application/json")
		if res, err := http.DefaultClient.Do(req); err == nil {
			res.Body.Close()
		}
	}()
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("another key's turn was refused")
	}
	cancel() // the clients go away: their turns end and free the slots
	for range 2 {
		<-errs
	}
	require.Eventually(t, func() bool {
		s.inFlight.mu.Lock()
		defer s.inFlight.mu.Unlock()
		return len(s.inFlight.turns) == 0
	}, 10*time.Second, 10*time.Millisecond, "every slot is given back")
}

func TestSessions(t *testing.T) {
	ts := serve(t, offline, Options{APIKeys: []string{"alice-key", "bob-key"}, Sessions: true})
	chat := ts.URL + "/v1/chat/completions"
	session := "s-" + newID() // the store outlives a test run (-count)
	turnOf := func(res *http.Response) int {
		t.Helper()
		require.Equal(t, http.StatusOK, res.StatusCode)
		var c chatCompletion
		require.NoError(t, json.NewDecoder(res.Body).Decode(&c))
		require.NotNil(t, c.SGRGraph)
		assert.Equal(t, session, c.SGRGraph.SessionID, "the result names the client's session, not the store's thread")
		return c.SGRGraph.Turn
	}
	assert.Equal(t, 1, turnOf(post(t, chat, "alice-key", chatBody("user", question), "X-Session-Id", session, resultHeader, "full")))
	// The request's earlier messages are ignored: the thread is the history.
	assert.Equal(t, 2, turnOf(post(t, chat, "alice-key", chatBody("user", "ignored", "assistant", "ignored", "user", "What does report mode do?"), "X-Session-Id", session, resultHeader, "full")))

	get := func(key, id string) *http.Response {
		req, _ := http.NewRequest(http.MethodGet, ts.URL+"/v1/threads/"+id, nil)
		req.Header.Set("Authorization", "Bearer "+key)
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		t.Cleanup(func() { res.Body.Close() })
		return res
	}
	res := get("alice-key", session)
	require.Equal(t, http.StatusOK, res.StatusCode)
	var th threadView
	require.NoError(t, json.NewDecoder(res.Body).Decode(&th))
	assert.Equal(t, 2, th.Turn)
	require.Len(t, th.Messages, 4, "two questions and their answers")
	assert.Equal(t, question, th.Messages[0].Content)
	assert.Equal(t, "What does report mode do?", th.Messages[2].Content)
	assert.Equal(t, "assistant", th.Messages[3].Role)

	res = get("bob-key", session)
	assert.Equal(t, http.StatusNotFound, res.StatusCode, "another key's session does not exist for bob")
	_, _, param, _ := errorOf(t, res)
	assert.Equal(t, "id", param)

	// Bob's session of the same name is his own, a new conversation.
	assert.Equal(t, 1, turnOf(post(t, chat, "bob-key", chatBody("user", question), "X-Session-Id", session, resultHeader, "full")))

	t.Run("turns endpoint continues the same session", func(t *testing.T) {
		res := post(t, ts.URL+"/v1/turns", "alice-key", `{"message":"And how do I switch it back?","session_id":"`+session+`","language":"en"}`)
		require.Equal(t, http.StatusOK, res.StatusCode)
		b, _ := io.ReadAll(res.Body)
		var r struct {
			Turn      int    `json:"turn"`
			SessionID string `json:"session_id"`
			Answer    string `json:"answer"`
		}
		require.NoError(t, json.Unmarshal(b, &r))
		assert.Equal(t, 3, r.Turn)
		assert.NotEmpty(t, r.Answer)
	})
}

// The auth scheme is case-insensitive (RFC 7235): "bearer k1" is k1; any
// other scheme is no key.
func TestBearerSchemeIsCaseInsensitive(t *testing.T) {
	ts := serve(t, offline, Options{APIKeys: []string{"k1"}})
	for auth, status := range map[string]int{"Bearer k1": 200, "bearer k1": 200, "BEARER k1": 200, "Basic k1": 401, "Bearerk1": 401, "bearer k2": 401} {
		req, err := http.NewRequest(http.MethodGet, ts.URL+"/v1/models", nil)
		require.NoError(t, err)
		req.Header.Set("Authorization", auth)
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		assert.Equal(t, status, res.StatusCode, auth)
	}
}

// send makes one request with a Host header of its own ("" keeps the
// URL's), an optional key and Content-Type, with the given client.
func send(t *testing.T, client *http.Client, method, url, host, key, contentType, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	require.NoError(t, err)
	if host != "" {
		req.Host = host
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := client.Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { res.Body.Close() })
	return res
}

// Without keys a turn's budget is its client's address (an IPv6 client's
// /64), never what X-Forwarded-For claims.
func TestClientOf(t *testing.T) {
	for addr, want := range map[string]string{
		"192.0.2.7:5555":             "192.0.2.7",
		"[::ffff:192.0.2.7]:5555":    "192.0.2.7",
		"[2001:db8:1:2:3:4:5:6]:443": "2001:db8:1:2::/64",
		"[2001:db8:1:2:ffff::1]:443": "2001:db8:1:2::/64", // the same host's /64
		"[fe80::1%eth0]:80":          "fe80::/64",
		"@":                          "@", // a unix socket's peer
	} {
		assert.Equal(t, want, clientOf(addr), addr)
	}
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.RemoteAddr = "192.0.2.7:5555"
	r.Header.Set("X-Forwarded-For", "198.51.100.1")
	assert.Equal(t, "client 192.0.2.7", budgetOf(r, anonymous), "X-Forwarded-For is any client's to send")
	assert.Equal(t, "k1id", budgetOf(r, "k1id"), "with keys the key is the budget")
}

// clientFrom is an HTTP client whose connections come from ip, a loopback
// address of its own (all of 127.0.0.0/8 reaches the server on 127.0.0.1).
func clientFrom(t *testing.T, ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	tr := &http.Transport{DialContext: d.DialContext}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

// Without keys the turn limit is each client's: 64 clients, each from an
// address of its own, all run a turn at once with a limit of one, and a
// second turn of one of them is refused.
func TestTurnsPerClientWithoutKeys(t *testing.T) {
	const clients = 64
	held, started := heldAgent(t)
	s := New(held, Options{MaxTurnsPerKey: 1})
	ts := serveHandler(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	answered := make(chan int, clients)
	for i := range clients {
		client := clientFrom(t, fmt.Sprintf("127.0.0.%d", i+2))
		go func() {
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL+"/v1/chat/completions", strings.NewReader(chatBody("user", question)))
			req.Header.Set("Content-Type", "application/json")
			res, err := client.Do(req)
			if err != nil {
				answered <- 0
				return
			}
			res.Body.Close()
			answered <- res.StatusCode
		}()
	}
	for n := 0; n < clients; n++ {
		select {
		case <-started:
		case status := <-answered: // a held turn answers only when cancelled
			t.Fatalf("%d turns had started when a client was answered %d", n, status)
		case <-time.After(30 * time.Second):
			t.Fatalf("%d of %d turns started", n, clients)
		}
	}
	res := send(t, clientFrom(t, "127.0.0.2"), http.MethodPost, ts.URL+"/v1/chat/completions", "", "", "application/json", chatBody("user", question))
	assert.Equal(t, http.StatusTooManyRequests, res.StatusCode)
	msg, _, _, _ := errorOf(t, res)
	assert.Contains(t, msg, "this client address: the limit is 1")
	cancel()
	for range clients {
		<-answered
	}
	require.Eventually(t, func() bool {
		s.inFlight.mu.Lock()
		defer s.inFlight.mu.Unlock()
		return len(s.inFlight.turns) == 0
	}, 10*time.Second, 10*time.Millisecond, "every slot is given back")
}

// A server without keys answers only to its own names: a page of another
// site that has its name resolve to this server (DNS rebinding) sends its
// own name as Host and is refused, on every route, /mcp included.
func TestForeignHostRefused(t *testing.T) {
	mcp := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	open := serve(t, offline, Options{Sessions: true, MCP: mcp, AllowedHosts: []string{"chat.example.com", "other.example:8443"}})
	keyed := serve(t, offline, Options{Sessions: true, MCP: mcp, APIKeys: []string{"k"}})
	tests := []struct {
		server *httptest.Server
		path   string
		host   string
		key    string
		status int
	}{
		{open, "/v1/threads", "evil.example", "", 403},
		{open, "/v1/threads", "evil.example:8080", "", 403},
		{open, "/v1/threads", "localhost.evil.example", "", 403},
		{open, "/v1/threads", "127.0.0.1.evil.example", "", 403},
		{open, "/mcp", "evil.example", "", 403},
		{open, "/healthz", "evil.example", "", 403},
		{open, "/v1/threads", "other.example:80", "", 403},
		{open, "/v1/threads", "", "", 200}, // the URL's 127.0.0.1:PORT
		{open, "/v1/threads", "localhost:1234", "", 200},
		{open, "/v1/threads", "LocalHost", "", 200},
		{open, "/v1/threads", "127.5.6.7", "", 200},
		{open, "/v1/threads", "[::1]:8080", "", 200},
		{open, "/v1/threads", "chat.example.com", "", 200},
		{open, "/v1/threads", "Chat.Example.com:9999", "", 200},
		{open, "/v1/threads", "other.example:8443", "", 200},
		{open, "/mcp", "localhost", "", 200},
		// With keys the Host is not checked: a foreign page holds no key.
		{keyed, "/v1/threads", "evil.example", "k", 200},
		{keyed, "/v1/threads", "evil.example", "", 401},
	}
	for _, tc := range tests {
		t.Run(tc.host+tc.path, func(t *testing.T) {
			res := send(t, http.DefaultClient, http.MethodGet, tc.server.URL+tc.path, tc.host, tc.key, "", "")
			require.Equal(t, tc.status, res.StatusCode)
			if tc.status != 403 {
				return
			}
			msg, typ, param, code := errorOf(t, res)
			assert.Equal(t, "invalid_request_error", typ)
			assert.Equal(t, "Host", param)
			assert.Equal(t, "host_not_allowed", code)
			assert.Contains(t, msg, `"`+tc.host+`"`)
			assert.Contains(t, msg, "--allowed-hosts")
		})
	}
}

// The address a client connected to is a name of the server: a server on
// 0.0.0.0 answers http://192.0.2.7:8080/ without an entry of its own.
func TestHostRule(t *testing.T) {
	rule := newHostRule([]string{" chat.example.com ", "other.example:8443", "", "[2001:db8::1]"})
	local := &net.TCPAddr{IP: net.ParseIP("192.0.2.7"), Port: 8080}
	for host, want := range map[string]bool{
		"192.0.2.7:8080": true, "192.0.2.7": true, "192.0.2.8:8080": false,
		"[::ffff:127.0.0.1]:80": true, "localhost.": true, "": false, ":8080": false,
		"chat.example.com.": true, "other.example": false, "[2001:db8::1]:443": true, "evil.example": false,
	} {
		assert.Equal(t, want, rule.allows(host, local), host)
	}
	assert.False(t, rule.allows("192.0.2.7", nil), "without a local address only names and loopback")
	for entry, ok := range map[string]bool{"chat.example.com": true, "192.0.2.7:8080": true, "[::1]": true,
		"http://chat.example.com": false, "chat.example.com/": false, "": false, "a b": false} {
		assert.Equal(t, ok, CheckAllowedHost(entry) == nil, entry)
	}
}

// Every POST wants a JSON body: the bodies a page of another origin may
// send without a CORS preflight (text/plain, a form, multipart, none
// declared) are refused before anything runs, on every route that takes
// one, /mcp included.
func TestPostsMustBeJSON(t *testing.T) {
	ts := serve(t, offline, Options{MCP: mcpserver.HTTPHandler(mcpserver.New(offline, mcpserver.Options{}), KeyOf)})
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	require.NoError(t, mw.WriteField("message", "hi"))
	require.NoError(t, mw.Close())
	bodies := []struct{ contentType, body string }{
		{"text/plain", `{"message":"hi"}`},
		{"text/plain;charset=UTF-8", `{"message":"hi"}`},
		{"application/x-www-form-urlencoded", "message=hi"},
		{mw.FormDataContentType(), form.String()},
		{"", `{"message":"hi"}`},
		{"application/jsonp", `{"message":"hi"}`},
	}
	for _, path := range []string{"/v1/chat/completions", "/v1/turns", "/v1/runs", "/mcp"} {
		for _, b := range bodies {
			t.Run(path+" "+b.contentType, func(t *testing.T) {
				res := send(t, http.DefaultClient, http.MethodPost, ts.URL+path, "", "", b.contentType, b.body)
				require.Equal(t, http.StatusUnsupportedMediaType, res.StatusCode)
				msg, _, param, code := errorOf(t, res)
				assert.Equal(t, "Content-Type", param)
				assert.Equal(t, "unsupported_media_type", code)
				assert.Contains(t, msg, "application/json")
			})
		}
	}
	t.Run("a form from a real client", func(t *testing.T) {
		res, err := http.PostForm(ts.URL+"/v1/turns", url.Values{"message": {"hi"}})
		require.NoError(t, err)
		defer res.Body.Close()
		assert.Equal(t, http.StatusUnsupportedMediaType, res.StatusCode)
	})
	t.Run("JSON with parameters is JSON", func(t *testing.T) {
		res := send(t, http.DefaultClient, http.MethodPost, ts.URL+"/v1/turns", "", "", "Application/JSON; charset=utf-8", `{"message":"`+question+`"}`)
		assert.Equal(t, http.StatusOK, res.StatusCode)
	})
}

// bearer is a client transport that sends one API key.
type bearer string

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}

// An MCP session is its opener's key's: another key naming it, to call a
// tool or to end it, gets the 404 of a session that does not exist, and
// the session goes on for its key.
func TestMCPSessionBelongsToItsKey(t *testing.T) {
	ts := serve(t, offline, Options{APIKeys: []string{"k1", "k2"},
		MCP: mcpserver.HTTPHandler(mcpserver.New(offline, mcpserver.Options{}), KeyOf)})
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp", DisableStandaloneSSE: true, HTTPClient: &http.Client{Transport: bearer("k1")}}, nil)
	require.NoError(t, err)
	defer cs.Close()
	require.NotEmpty(t, cs.ID())
	callTool := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search_kb","arguments":{"query":"safety guard"}}}`
	as := func(key, method, body string) int {
		req, err := http.NewRequest(method, ts.URL+"/mcp", strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Session-Id", cs.ID())
		req.Header.Set("Mcp-Protocol-Version", cs.InitializeResult().ProtocolVersion)
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode
	}
	assert.Equal(t, http.StatusNotFound, as("k2", http.MethodPost, callTool), "another key's call")
	assert.Equal(t, http.StatusNotFound, as("k2", http.MethodDelete, ""), "another key's DELETE")
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_kb", Arguments: map[string]any{"query": "safety guard"}})
	require.NoError(t, err, "the session is still its key's")
	assert.False(t, res.IsError)
	assert.Equal(t, http.StatusOK, as("k1", http.MethodPost, callTool))
	assert.Equal(t, http.StatusNoContent, as("k1", http.MethodDelete, ""))
	assert.Equal(t, http.StatusNotFound, as("k1", http.MethodPost, callTool), "an ended session is gone")
}
