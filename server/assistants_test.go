package server

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/contracts"
)

// wireError is an error answer's body.
type wireError struct {
	Error struct {
		Message string `json:"message"`
		Param   string `json:"param"`
		Code    string `json:"code"`
	} `json:"error"`
}

func expectError(t *testing.T, res *http.Response, status int, param, code string) wireError {
	t.Helper()
	require.Equal(t, status, res.StatusCode)
	e := decodeAs[wireError](t, res)
	assert.Equal(t, param, e.Error.Param, e.Error.Message)
	assert.Equal(t, code, e.Error.Code, e.Error.Message)
	return e
}

// An assistant with a knowledge base of its own answers from it on
// /v1/turns and chat completions; only reviewer keys make assistants;
// a conversation keeps the assistant version its first turn ran.
func TestAssistantsOverTheAPI(t *testing.T) {
	kbDir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(kbDir, "zephyr-reset.md"), []byte("# Zephyr gateway reset\n\n"+
		"To reset the Zephyr gateway, hold its blue button for twelve seconds until the lamp blinks amber.\n"), 0o644))
	base := config.Default()
	base.KB.CacheDir = t.TempDir()
	store := checkpoint.NewMemory()
	own, err := agent.New(context.Background(), base, agent.Options{Knowledge: offline.Knowledge(), Store: store})
	require.NoError(t, err)
	as, err := agent.NewAssistants(agent.AssistantsOptions{Base: base, Agent: agent.Options{Store: store}})
	require.NoError(t, err)
	t.Cleanup(func() { as.Close(); own.Close() })
	url := serve(t, own, Options{APIKeys: []string{"asker"}, ReviewerKeys: []string{"boss"}, Sessions: true, Assistants: as}).URL
	create := func(key, body string) *http.Response { return post(t, url+"/v1/assistants", key, body) }
	zephyr := `{"name": "zephyr", "config": {"kb": {"dir": ` + jsonString(kbDir) + `}}}`

	expectError(t, create("asker", zephyr), http.StatusForbidden, "", "reviewer_only")
	e := expectError(t, create("boss", `{"name": "zephyr", "config": {"guard": {"mode": "loose"}}}`), http.StatusBadRequest, "config.guard.mode", "invalid_value")
	assert.Contains(t, e.Error.Message, `config.guard.mode: "loose" is not`)
	expectError(t, create("boss", `{"name": "a/b", "config": {}}`), http.StatusBadRequest, "name", "invalid_value")
	expectError(t, create("boss", `{"name": "zephyr"}`), http.StatusBadRequest, "config", "missing_required_parameter")
	for want := 1; want <= 2; want++ {
		res := create("boss", zephyr)
		require.Equal(t, http.StatusCreated, res.StatusCode)
		assert.Equal(t, want, decodeAs[agent.AssistantVersion](t, res).Version)
	}
	list := decodeAs[assistantList](t, get(t, url+"/v1/assistants", "asker"))
	require.Len(t, list.Data, 1)
	assert.Equal(t, "zephyr", list.Data[0].Name)
	assert.Equal(t, 2, list.Data[0].Latest)
	assert.Len(t, list.Data[0].Versions, 2)
	one := decodeAs[assistantView](t, get(t, url+"/v1/assistants/zephyr", "asker"))
	assert.Equal(t, 2, one.Latest)
	expectError(t, get(t, url+"/v1/assistants/nope", "asker"), http.StatusNotFound, "name", "assistant_not_found")

	turn := func(body string) *http.Response { return post(t, url+"/v1/turns", "asker", body) }
	question := `"How do I reset the Zephyr gateway?"`
	res := turn(`{"message": ` + question + `, "assistant": "zephyr@1", "session_id": "z1"}`)
	require.Equal(t, http.StatusOK, res.StatusCode)
	assertFromZephyr(t, decodeAs[contracts.StructuredResult](t, res), true)

	res = turn(`{"message": ` + question + `, "session_id": "d1"}`)
	require.Equal(t, http.StatusOK, res.StatusCode)
	assertFromZephyr(t, decodeAs[contracts.StructuredResult](t, res), false)

	expectError(t, turn(`{"message": "And then?", "assistant": "zephyr@2", "session_id": "z1"}`), http.StatusConflict, "assistant", "assistant_mismatch")
	expectError(t, turn(`{"message": "And then?", "assistant": "zephyr", "session_id": "d1"}`), http.StatusConflict, "assistant", "assistant_mismatch")
	expectError(t, turn(`{"message": "And then?", "assistant": "nope"}`), http.StatusNotFound, "assistant", "assistant_not_found")
	// Continued without naming it, a conversation keeps its assistant.
	res = turn(`{"message": ` + question + `, "session_id": "z1"}`)
	require.Equal(t, http.StatusOK, res.StatusCode)
	assertFromZephyr(t, decodeAs[contracts.StructuredResult](t, res), true)

	res = post(t, url+"/v1/chat/completions", "asker", `{"model": "zephyr", "messages": [{"role": "user", "content": `+question+`}]}`)
	require.Equal(t, http.StatusOK, res.StatusCode)
	c := decodeAs[chatCompletion](t, res)
	assert.Contains(t, strings.ToLower(c.Choices[0].Message.Content), "blue button")
	res = post(t, url+"/v1/chat/completions", "asker", `{"model": "gpt-4o", "messages": [{"role": "user", "content": `+question+`}]}`)
	expectError(t, res, http.StatusNotFound, "model", "model_not_found")
	models := decodeAs[modelList](t, get(t, url+"/v1/models", "asker"))
	require.Len(t, models.Data, 2)
	assert.Equal(t, "zephyr", models.Data[1].ID)
}

func assertFromZephyr(t *testing.T, res contracts.StructuredResult, want bool) {
	t.Helper()
	from := false
	for _, e := range res.Evidence {
		from = from || strings.Contains(e.Ref, "zephyr-reset")
	}
	assert.Equal(t, want, from, "answer: %s", res.Answer)
	assert.Equal(t, want, strings.Contains(strings.ToLower(res.Answer), "blue button"), res.Answer)
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
