package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/memory"
	"github.com/sgrgraph/sgrgraph/runs"
	"github.com/sgrgraph/sgrgraph/sgrtest/servers"
)

func cyrillic(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Cyrillic, r) {
			return true
		}
	}
	return false
}

// TestMemoryIsTheKeysOnTurnsAndRuns: with memory.enabled, /v1/turns and
// /v1/runs keep a user's preferences under tenants/KEY/users/USER, as chat
// completions do: the user's next turn, on either endpoint, reads them;
// the same user name under another key, or the key's other users, never.
func TestMemoryIsTheKeysOnTurnsAndRuns(t *testing.T) {
	ctx := context.Background()
	cfg := config.Default()
	cfg.KB.CacheDir = t.TempDir()
	cfg.Memory.Enabled = true
	mem := memory.NewInProcess()
	a, err := agent.New(ctx, cfg, agent.Options{Knowledge: offline.Knowledge(), Store: checkpoint.NewMemory(), Memory: mem})
	require.NoError(t, err)
	t.Cleanup(func() { a.Close() })
	q, err := runs.Open(ctx, servers.Redis(t), runs.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { q.Close() })
	wctx, stop := context.WithCancel(ctx)
	worked := make(chan error, 1)
	go func() { worked <- runs.Worker{Queue: q, Handler: a}.Work(wctx) }()
	t.Cleanup(func() { stop(); <-worked })
	url := serve(t, a, Options{APIKeys: []string{"key-a", "key-b"}, Sessions: true, Runs: q}).URL

	body := func(msg, user string) string {
		b, _ := json.Marshal(map[string]string{"message": msg, "user": user})
		return string(b)
	}
	turn := func(key, msg, user string) contracts.StructuredResult {
		t.Helper()
		res := post(t, url+"/v1/turns", key, body(msg, user))
		require.Equal(t, http.StatusOK, res.StatusCode)
		return decodeAs[contracts.StructuredResult](t, res)
	}
	run := func(key, msg, user string) contracts.StructuredResult {
		t.Helper()
		r := submitted(t, url, key, body(msg, user))
		require.Equal(t, "done", r.Status, r.Error)
		require.NotNil(t, r.Result)
		return *r.Result
	}
	prefs := func(key, user string) (string, bool) {
		t.Helper()
		ns := []string{"tenants", keyIDOf(key)}
		if user != "" {
			ns = append(ns, "users", user)
		}
		it, err := mem.Get(ctx, ns, agent.PreferencesKey)
		if errors.Is(err, memory.ErrNotFound) {
			return "", false
		}
		require.NoError(t, err)
		return string(it.Value), true
	}

	turn("key-a", "Please answer in Russian. I use Acme Cloud. "+question, "ann")
	got, ok := prefs("key-a", "ann")
	require.True(t, ok, "the turn kept ann's preferences under key-a")
	assert.JSONEq(t, `{"language":"ru","product":"Acme Cloud"}`, got)

	assert.True(t, cyrillic(run("key-a", question, "ann").Answer), "ann's run reads her preferences")
	assert.True(t, cyrillic(turn("key-a", question, "ann").Answer), "and so does her next turn")
	assert.False(t, cyrillic(run("key-b", question, "ann").Answer), "ann under another key is another user")
	assert.False(t, cyrillic(turn("key-b", question, "ann").Answer))
	assert.False(t, cyrillic(turn("key-a", question, "bob").Answer), "another user of the key")
	assert.False(t, cyrillic(run("key-a", question, "").Answer), "the key itself, with no user named")

	run("key-b", "I use Zeta Cloud. "+question, "ann")
	got, ok = prefs("key-b", "ann")
	require.True(t, ok, "the run kept key-b's ann's preferences under key-b")
	assert.JSONEq(t, `{"product":"Zeta Cloud"}`, got)
	got, _ = prefs("key-a", "ann")
	assert.JSONEq(t, `{"language":"ru","product":"Acme Cloud"}`, got, "key-a's ann is untouched")
	_, ok = prefs("key-a", "bob")
	assert.False(t, ok)

	for _, path := range []string{"/v1/turns", "/v1/runs"} {
		res := post(t, url+path, "key-a", body(question, "ann\x01"))
		expectError(t, res, http.StatusBadRequest, "user", "invalid_value")
	}
}
