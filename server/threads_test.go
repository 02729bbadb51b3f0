package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/config"
)

// threadedAgent is an agent over the offline agent's knowledge base with a
// thread store of its own, which the server lists.
func threadedAgent(t *testing.T) *agent.Agent {
	t.Helper()
	store := checkpoint.NewMemory()
	cfg := config.Default()
	cfg.KB.CacheDir = t.TempDir()
	a, err := agent.New(context.Background(), cfg, agent.Options{Knowledge: offline.Knowledge(), Store: store})
	require.NoError(t, err)
	t.Cleanup(func() { a.Close(); store.Close() })
	return a
}

// ask runs one turn of a key's session.
func ask(t *testing.T, url, key, session, message string) {
	t.Helper()
	body, err := json.Marshal(map[string]string{"message": message, "session_id": session})
	require.NoError(t, err)
	res := post(t, url+"/v1/turns", key, string(body))
	require.Equal(t, http.StatusOK, res.StatusCode)
}

func listThreads(t *testing.T, url, key, query string) threadList {
	t.Helper()
	res := get(t, url+"/v1/threads"+query, key)
	require.Equal(t, http.StatusOK, res.StatusCode)
	var l threadList
	require.NoError(t, json.NewDecoder(res.Body).Decode(&l))
	return l
}

func TestThreadListIsTheKeysSessionsNewestFirst(t *testing.T) {
	a := threadedAgent(t)
	ts := serve(t, a, Options{APIKeys: []string{"alice-key", "bob-key"}, Sessions: true})
	ask(t, ts.URL, "alice-key", "first", question)
	ask(t, ts.URL, "alice-key", "first", "What does report mode do?")
	ask(t, ts.URL, "alice-key", "second", "How do I run a batch?")
	ask(t, ts.URL, "bob-key", "bobs", "What is a decision table?")

	l := listThreads(t, ts.URL, "alice-key", "")
	assert.Equal(t, "list", l.Object)
	require.Len(t, l.Data, 2, "bob's session is not alice's to see")
	assert.Equal(t, []string{"second", "first"}, []string{l.Data[0].ID, l.Data[1].ID}, "the most recently written first")
	assert.Equal(t, "How do I run a batch?", l.Data[0].Title)
	assert.Equal(t, question, l.Data[1].Title, "the title is the first question, not the last")
	assert.Equal(t, 2, l.Data[1].Turn)
	assert.Equal(t, "thread", l.Data[1].Object)
	assert.Positive(t, l.Data[1].UpdatedAt)

	bob := listThreads(t, ts.URL, "bob-key", "")
	require.Len(t, bob.Data, 1)
	assert.Equal(t, "bobs", bob.Data[0].ID)

	one := listThreads(t, ts.URL, "alice-key", "?limit=1")
	require.Len(t, one.Data, 1)
	assert.Equal(t, "second", one.Data[0].ID)
}

func TestThreadTitleIsMaskedOnOneLineAndCut(t *testing.T) {
	a := threadedAgent(t)
	ts := serve(t, a, Options{Sessions: true})
	long := "How do I configure the guard?\nMail me at jane.doe@example.com " + strings.Repeat("please ", 40)
	ask(t, ts.URL, "", "masked", long)
	l := listThreads(t, ts.URL, "", "")
	require.Len(t, l.Data, 1)
	got := l.Data[0].Title
	assert.NotContains(t, got, "jane.doe@example.com", "a title is masked as every answer is")
	assert.NotContains(t, got, "\n")
	assert.True(t, strings.HasPrefix(got, "How do I configure the guard? Mail me at "), got)
	assert.Equal(t, maxTitleRunes, utf8.RuneCountInString(got))
	assert.True(t, strings.HasSuffix(got, "…"))
}

func TestThreadListRefused(t *testing.T) {
	a := threadedAgent(t)
	keyed := serve(t, a, Options{APIKeys: []string{"k"}, Sessions: true})
	unlisted := serve(t, a, Options{}) // a server that keeps no sessions
	tests := []struct {
		name   string
		url    string
		key    string
		status int
		param  any // nil: null
		code   string
	}{
		{"no key", keyed.URL + "/v1/threads", "", 401, nil, "invalid_api_key"},
		{"limit zero", keyed.URL + "/v1/threads?limit=0", "k", 400, "limit", "invalid_value"},
		{"limit over the bound", keyed.URL + "/v1/threads?limit=101", "k", 400, "limit", "invalid_value"},
		{"limit not a number", keyed.URL + "/v1/threads?limit=ten", "k", 400, "limit", "invalid_value"},
		{"no store to list", unlisted.URL + "/v1/threads", "", 404, nil, "threads_unavailable"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := get(t, tc.url, tc.key)
			assert.Equal(t, tc.status, res.StatusCode)
			_, _, param, code := errorOf(t, res)
			assert.Equal(t, tc.param, param)
			assert.Equal(t, tc.code, code)
		})
	}
	res := post(t, keyed.URL+"/v1/threads", "k", "{}")
	assert.Equal(t, http.StatusMethodNotAllowed, res.StatusCode)
}

// A page is served without a key (a browser holds none until the page asks
// for it); the API beside it still wants one, and other paths stay the
// API's 404.
func TestUIIsMountedAtTheRootOnly(t *testing.T) {
	ui := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("ui " + r.URL.Path)) })
	withUI := serve(t, offline, Options{APIKeys: []string{"k"}, UI: ui})
	without := serve(t, offline, Options{APIKeys: []string{"k"}})
	tests := []struct {
		name   string
		url    string
		method string
		status int
		body   string // the UI's answer; "" for the API's JSON error
	}{
		{"the page", withUI.URL + "/", http.MethodGet, 200, "ui /"},
		{"an asset", withUI.URL + "/ui/app.js", http.MethodGet, 200, "ui /ui/app.js"},
		{"a POST to the page", withUI.URL + "/", http.MethodPost, 404, ""},
		{"another path", withUI.URL + "/index.html", http.MethodGet, 404, ""},
		{"the API still wants its key", withUI.URL + "/v1/models", http.MethodGet, 401, ""},
		{"no UI configured", without.URL + "/", http.MethodGet, 404, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var res *http.Response
			if tc.method == http.MethodPost {
				res = post(t, tc.url, "k", "{}")
			} else {
				res = get(t, tc.url, "")
			}
			assert.Equal(t, tc.status, res.StatusCode)
			if tc.body == "" {
				errorOf(t, res)
				return
			}
			b, err := io.ReadAll(res.Body)
			require.NoError(t, err)
			assert.Equal(t, tc.body, string(b))
		})
	}
}
