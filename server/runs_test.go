package server

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/runs"
	"github.com/sgrgraph/sgrgraph/sgrtest/servers"
)

// get sends a GET with an optional bearer key and extra headers.
func get(t *testing.T, url, key string, header ...string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	require.NoError(t, err)
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { res.Body.Close() })
	return res
}

type sseEvent struct{ id, name, data string }

// sseEvents reads a whole stream's events; [DONE] is an event named "".
func sseEvents(t *testing.T, res *http.Response) []sseEvent {
	t.Helper()
	require.Equal(t, http.StatusOK, res.StatusCode)
	var out []sseEvent
	var cur sseEvent
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.data != "" {
				out = append(out, cur)
			}
			cur = sseEvent{}
		case strings.HasPrefix(line, "id: "):
			cur.id = line[4:]
		case strings.HasPrefix(line, "event: "):
			cur.name = line[7:]
		case strings.HasPrefix(line, "data: "):
			cur.data = line[6:]
		}
	}
	require.NoError(t, sc.Err())
	return out
}

// TestRunsThroughAWorker: a run posted to one server is run by a worker
// on the same queue; its client polls it, and streams its events from the
// start and again from the middle; another key cannot see it.
func TestRunsThroughAWorker(t *testing.T) {
	q, err := runs.Open(context.Background(), servers.Redis(t), runs.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { q.Close() })
	ctx, stop := context.WithCancel(context.Background())
	worked := make(chan error, 1)
	go func() { worked <- runs.Worker{Queue: q, Handler: offline}.Work(ctx) }()
	t.Cleanup(func() { stop(); <-worked })

	ts := serve(t, offline, Options{APIKeys: []string{"alice-key", "bob-key"}, Runs: q})
	res := post(t, ts.URL+"/v1/runs", "alice-key", `{"message":"`+question+`"}`)
	require.Equal(t, http.StatusAccepted, res.StatusCode)
	var queued struct {
		ID, Object, Status string
	}
	require.NoError(t, json.NewDecoder(res.Body).Decode(&queued))
	assert.Equal(t, "run", queued.Object)
	assert.Equal(t, "queued", queued.Status)
	assert.Equal(t, "/v1/runs/"+queued.ID, res.Header.Get("Location"))

	var run struct {
		Status   string
		Attempts int
		Result   *contracts.StructuredResult
	}
	require.Eventually(t, func() bool {
		r := get(t, ts.URL+"/v1/runs/"+queued.ID, "alice-key")
		require.Equal(t, http.StatusOK, r.StatusCode)
		require.NoError(t, json.NewDecoder(r.Body).Decode(&run))
		return run.Status == "done"
	}, 30*time.Second, 50*time.Millisecond)
	require.NotNil(t, run.Result)
	assert.Equal(t, contracts.VerdictPass, run.Result.Verdict.Verdict)
	assert.NotEmpty(t, run.Result.Answer)

	evs := sseEvents(t, get(t, ts.URL+"/v1/runs/"+queued.ID+"/events", "alice-key"))
	require.GreaterOrEqual(t, len(evs), 4)
	assert.Equal(t, "started", evs[0].name)
	assert.Equal(t, "result", evs[len(evs)-2].name)
	assert.Equal(t, "[DONE]", evs[len(evs)-1].data)
	var names []string
	for _, ev := range evs {
		names = append(names, ev.name)
	}
	assert.Contains(t, names, "verdict")
	assert.Contains(t, names, "token")
	// From the middle: what follows the event, the same as before.
	mid := len(evs) / 2
	rest := sseEvents(t, get(t, ts.URL+"/v1/runs/"+queued.ID+"/events", "alice-key", "Last-Event-ID", evs[mid].id))
	assert.Equal(t, evs[mid+1:], rest)

	for _, path := range []string{"/v1/runs/" + queued.ID, "/v1/runs/" + queued.ID + "/events"} {
		r := get(t, ts.URL+path, "bob-key")
		assert.Equal(t, http.StatusNotFound, r.StatusCode, path)
		_, _, _, code := errorOf(t, r)
		assert.Equal(t, "run_not_found", code)
	}
}

func TestRunsRefused(t *testing.T) {
	ts := serve(t, offline, Options{})
	res := post(t, ts.URL+"/v1/runs", "", `{"message":"hi"}`)
	assert.Equal(t, http.StatusNotFound, res.StatusCode)
	msg, _, _, code := errorOf(t, res)
	assert.Equal(t, "runs_unavailable", code)
	assert.Contains(t, msg, "--queue redis://")

	q, err := runs.Open(context.Background(), servers.Redis(t), runs.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { q.Close() })
	ts = serve(t, offline, Options{Runs: q})
	for _, tc := range []struct{ body, param string }{
		{`{"message":"hi","stream":true}`, "stream"},
		{`{}`, "message"},
		{`{"message":"hi","session_id":"has space"}`, "session_id"},
	} {
		res := post(t, ts.URL+"/v1/runs", "", tc.body)
		assert.Equal(t, http.StatusBadRequest, res.StatusCode, tc.body)
		_, _, param, _ := errorOf(t, res)
		assert.Equal(t, tc.param, param, tc.body)
	}
	assert.Equal(t, http.StatusNotFound, get(t, ts.URL+"/v1/runs/run_nothing", "").StatusCode)
	assert.Equal(t, http.StatusNotFound, get(t, ts.URL+"/v1/runs/run_nothing/events", "").StatusCode)
}
