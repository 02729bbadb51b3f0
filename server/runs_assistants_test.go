package server

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/runs"
	"github.com/sgrgraph/sgrgraph/sgrtest/servers"
)

// runOfAPI is a run as GET /v1/runs/{id} shows it.
type runOfAPI struct {
	ID        string
	Status    string
	Error     string
	Result    *contracts.StructuredResult
	Interrupt *struct {
		ThreadID    string `json:"thread_id"`
		InterruptID string `json:"interrupt_id"`
		Turn        int    `json:"turn"`
	}
}

// submitted posts a run and waits until it has ended.
func submitted(t *testing.T, url, key, body string) runOfAPI {
	t.Helper()
	res := post(t, url+"/v1/runs", key, body)
	require.Equal(t, http.StatusAccepted, res.StatusCode, "%s", body)
	queued := decodeAs[runOfAPI](t, res)
	var run runOfAPI
	require.Eventually(t, func() bool {
		r := get(t, url+"/v1/runs/"+queued.ID, key)
		require.Equal(t, http.StatusOK, r.StatusCode)
		run = decodeAs[runOfAPI](t, r)
		return run.Status != "queued" && run.Status != "running"
	}, time.Minute, 50*time.Millisecond, "run %s of %s", queued.ID, body)
	return run
}

// zephyrKB is a knowledge base folder of one article the server's own
// knowledge base does not have.
func zephyrKB(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "zephyr-reset.md"), []byte("# Zephyr gateway reset\n\n"+
		"To reset the Zephyr gateway, hold its blue button for twelve seconds until the lamp blinks amber.\n"), 0o644))
	return dir
}

// TestRunsWithAnAssistant: a run names an assistant as /v1/turns does; the
// worker runs that assistant's version (its own knowledge base answers), the
// conversation keeps it, and naming another is a 409.
func TestRunsWithAnAssistant(t *testing.T) {
	base := config.Default()
	base.KB.CacheDir = t.TempDir()
	store := checkpoint.NewMemory() // the server's and the worker's thread store
	own, err := agent.New(context.Background(), base, agent.Options{Knowledge: offline.Knowledge(), Store: store})
	require.NoError(t, err)
	as, err := agent.NewAssistants(agent.AssistantsOptions{Base: base, Agent: agent.Options{Store: store}})
	require.NoError(t, err)
	t.Cleanup(func() { as.Close(); own.Close() })

	q, err := runs.Open(context.Background(), servers.Redis(t), runs.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { q.Close() })
	ctx, stop := context.WithCancel(context.Background())
	worked := make(chan error, 1)
	go func() { worked <- runs.Worker{Queue: q, Handler: own, Assistants: as}.Work(ctx) }()
	t.Cleanup(func() { stop(); <-worked })

	url := serve(t, own, Options{APIKeys: []string{"asker"}, ReviewerKeys: []string{"boss"}, Sessions: true, Assistants: as, Runs: q}).URL
	zephyr := `{"name": "zephyr", "config": {"kb": {"dir": ` + jsonString(zephyrKB(t)) + `}}}`
	for range 2 {
		require.Equal(t, http.StatusCreated, post(t, url+"/v1/assistants", "boss", zephyr).StatusCode)
	}
	question := `"How do I reset the Zephyr gateway?"`
	done := func(run runOfAPI) contracts.StructuredResult {
		t.Helper()
		require.Equal(t, "done", run.Status, run.Error)
		require.NotNil(t, run.Result)
		return *run.Result
	}

	first := done(submitted(t, url, "asker", `{"message": `+question+`, "assistant": "zephyr@1", "session_id": "r1"}`))
	assertFromZephyr(t, first, true)
	assert.Equal(t, 1, first.Turn)
	assertFromZephyr(t, done(submitted(t, url, "asker", `{"message": `+question+`, "session_id": "r2"}`)), false)
	assertFromZephyr(t, done(submitted(t, url, "asker", `{"message": `+question+`, "assistant": "zephyr"}`)), true)

	submit := func(body string) *http.Response { return post(t, url+"/v1/runs", "asker", body) }
	expectError(t, submit(`{"message": "And then?", "assistant": "zephyr@2", "session_id": "r1"}`), http.StatusConflict, "assistant", "assistant_mismatch")
	expectError(t, submit(`{"message": "And then?", "assistant": "zephyr", "session_id": "r2"}`), http.StatusConflict, "assistant", "assistant_mismatch")
	expectError(t, submit(`{"message": "And then?", "assistant": "nope"}`), http.StatusNotFound, "assistant", "assistant_not_found")
	expectError(t, submit(`{"message": "And then?", "assistant": "a/b"}`), http.StatusBadRequest, "assistant", "invalid_value")

	// Continued without naming it, on /v1/runs or /v1/turns, the
	// conversation keeps its assistant, and the thread remembers it.
	next := done(submitted(t, url, "asker", `{"message": `+question+`, "session_id": "r1"}`))
	assertFromZephyr(t, next, true)
	assert.Equal(t, 2, next.Turn, "the run continues the conversation")
	res := post(t, url+"/v1/turns", "asker", `{"message": `+question+`, "session_id": "r1"}`)
	require.Equal(t, http.StatusOK, res.StatusCode)
	assertFromZephyr(t, decodeAs[contracts.StructuredResult](t, res), true)
	ref, ok, err := as.Bound(context.Background(), threadOf(keyIDOf("asker"), "r1"))
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, agent.Ref{Name: "zephyr", Version: 1}, ref)

	// A version made while a run waits does not answer it: the run
	// carries the version it was submitted with.
	res = submit(`{"message": ` + question + `, "assistant": "zephyr", "session_id": "r3"}`)
	require.Equal(t, http.StatusAccepted, res.StatusCode)
	var queued struct{ ID string }
	require.NoError(t, json.NewDecoder(res.Body).Decode(&queued))
	got, err := q.Get(context.Background(), keyIDOf("asker"), queued.ID)
	require.NoError(t, err)
	assert.Equal(t, "zephyr@2", got.Spec.Assistant)
}

// TestWorkerWithoutAssistants: a run naming an assistant, taken by a
// worker that serves none, fails saying so rather than answering with
// the worker's own configuration.
func TestWorkerWithoutAssistants(t *testing.T) {
	q, err := runs.Open(context.Background(), servers.Redis(t), runs.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { q.Close() })
	ctx, stop := context.WithCancel(context.Background())
	worked := make(chan error, 1)
	go func() { worked <- runs.Worker{Queue: q, Handler: offline}.Work(ctx) }()
	t.Cleanup(func() { stop(); <-worked })
	_, err = q.Submit(context.Background(), "o", "run_a", runs.Spec{Message: question, Assistant: "zephyr@1"})
	require.NoError(t, err)
	run, err := q.Wait(context.Background(), "o", "run_a")
	require.NoError(t, err)
	assert.Equal(t, runs.Failed, run.Status)
	assert.Contains(t, run.Error, "serves no assistants")
	assert.Nil(t, run.Result)
}
