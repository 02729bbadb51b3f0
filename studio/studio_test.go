package studio_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/studio"
)

// servePost serves the studio of the tests' graph on a memory store; the
// topic typed on the page is the input.
func servePost(t *testing.T, hold func(context.Context, string) error, o studio.Options[*post]) (*httptest.Server, checkpoint.Store) {
	t.Helper()
	store := checkpoint.NewMemory()
	t.Cleanup(func() { store.Close() })
	o.Input = func(text string) (*post, error) { return &post{Topic: text}, nil }
	h, err := studio.New(postGraph(t, store, hold), store, o)
	require.NoError(t, err)
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts, store
}

// call sends a request and returns the status and the body.
func call(t *testing.T, ts *httptest.Server, method, path string, body any) (int, []byte) {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		require.NoError(t, err)
		r = strings.NewReader(string(b))
	}
	req, err := http.NewRequest(method, ts.URL+path, r)
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	res, err := ts.Client().Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res.StatusCode, data
}

func get[T any](t *testing.T, ts *httptest.Server, path string) T {
	t.Helper()
	status, body := call(t, ts, http.MethodGet, path, nil)
	require.Equal(t, http.StatusOK, status, "%s: %s", path, body)
	var v T
	require.NoError(t, json.Unmarshal(body, &v), "%s", body)
	return v
}

type event struct {
	Name string
	Data map[string]any
}

// run starts a run and reads its events to the end.
func run(t *testing.T, ts *httptest.Server, thread string, body any) []event {
	t.Helper()
	b, err := json.Marshal(body)
	require.NoError(t, err)
	res, err := ts.Client().Post(ts.URL+"/studio/api/threads/"+thread+"/runs", "application/json", strings.NewReader(string(b)))
	require.NoError(t, err)
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		data, _ := io.ReadAll(res.Body)
		t.Fatalf("run: %d %s", res.StatusCode, data)
	}
	require.Equal(t, "text/event-stream", res.Header.Get("Content-Type"))
	var out []event
	sc := bufio.NewScanner(res.Body)
	var name string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			e := event{Name: name}
			require.NoError(t, json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &e.Data))
			out = append(out, e)
		}
	}
	require.NoError(t, sc.Err())
	return out
}

// started lists the nodes whose start the events report, in order.
func started(evs []event) []string {
	var out []string
	for _, e := range evs {
		if e.Name == "node" && e.Data["event"] == "start" {
			out = append(out, e.Data["path"].(string))
		}
	}
	return out
}

type checkpointView struct {
	ID         string `json:"id"`
	Parent     string `json:"parent"`
	Node       string `json:"node"`
	Source     string `json:"source"`
	Next       []string
	Interrupts []json.RawMessage
	Changed    []string
	Decisions  []struct {
		Table string
		Rule  int
	}
}

type checkpointList struct {
	Checkpoints []checkpointView
}

// after is the newest checkpoint written once node ended.
func after(t *testing.T, list checkpointList, node string) checkpointView {
	t.Helper()
	for _, c := range list.Checkpoints {
		if c.Node == node && c.Source == "loop" {
			return c
		}
	}
	t.Fatalf("no checkpoint after %s in %+v", node, list)
	return checkpointView{}
}

func TestGraphAndPage(t *testing.T) {
	ts, _ := servePost(t, nil, studio.Options[*post]{})
	g := get[struct {
		Name, Mermaid, SVG string
		Nodes              []struct{ Path string }
		Fields             []struct{ Name, Reduce string }
	}](t, ts, "/studio/api/graph")
	assert.Equal(t, "post", g.Name)
	assert.Contains(t, g.Mermaid, `judge -. "DT-P publish (rule 1)" .-> publish`)
	for _, n := range []string{"START", "write", "judge", "publish", "reject", "END"} {
		assert.Contains(t, g.SVG, `data-node="`+n+`"`)
	}
	assert.Contains(t, g.SVG, "DT-P reject (rule 2)")
	assert.Contains(t, g.Fields, struct{ Name, Reduce string }{"log", "append"})
	assert.Contains(t, g.Fields, struct{ Name, Reduce string }{"decisions", "append"}, "the fields of embedded structs are the state's")

	res, err := ts.Client().Get(ts.URL + "/studio")
	require.NoError(t, err)
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	assert.Equal(t, http.StatusOK, res.StatusCode)
	assert.Contains(t, string(body), `/studio/assets/studio.js`)
	assert.Contains(t, res.Header.Get("Content-Security-Policy"), "script-src 'self'")
	status, _ := call(t, ts, http.MethodGet, "/studio/assets/studio.js", nil)
	assert.Equal(t, http.StatusOK, status)
	status, body = call(t, ts, http.MethodGet, "/studio/assets/nothing.js", nil)
	assert.Equal(t, http.StatusNotFound, status, "%s", body)
}

// TestRunForkReplay runs the graph, forks it from an edited checkpoint,
// answers the interrupt the new branch asks, and replays the first branch.
func TestRunForkReplay(t *testing.T) {
	ts, _ := servePost(t, nil, studio.Options[*post]{})
	evs := run(t, ts, "t1", map[string]any{"input": "go"})
	assert.Equal(t, []string{"write", "judge", "reject"}, started(evs))
	assert.Equal(t, "done", evs[len(evs)-1].Name)

	threads := get[struct{ Threads []struct{ ID string } }](t, ts, "/studio/api/threads")
	assert.Equal(t, "t1", threads.Threads[0].ID)

	list := get[checkpointList](t, ts, "/studio/api/threads/t1/checkpoints")
	judged := after(t, list, "judge")
	require.Len(t, judged.Decisions, 1)
	assert.Equal(t, "DT-P", judged.Decisions[0].Table)
	assert.Equal(t, 2, judged.Decisions[0].Rule, "a draft of 16 characters is too short")
	assert.Equal(t, []string{"reject"}, judged.Next)
	written := after(t, list, "write")
	assert.Equal(t, []string{"judge"}, written.Next)
	assert.Contains(t, written.Changed, "draft")

	detail := get[struct {
		State map[string]json.RawMessage
		Diff  []struct {
			Field         string
			Before, After json.RawMessage
		}
	}](t, ts, "/studio/api/threads/t1/checkpoints/"+written.ID)
	assert.JSONEq(t, `"a draft about go"`, string(detail.State["draft"]))
	require.NotEmpty(t, detail.Diff)
	var draftChange bool
	for _, d := range detail.Diff {
		if d.Field == "draft" {
			draftChange = true
			assert.JSONEq(t, `"a draft about go"`, string(d.After))
		}
	}
	assert.True(t, draftChange, "the diff shows the draft write wrote: %+v", detail.Diff)

	// Fork after write with a longer draft: the judge now publishes, and
	// publishing asks a person.
	status, body := call(t, ts, http.MethodPost, "/studio/api/threads/t1/checkpoints/"+written.ID+"/fork",
		map[string]any{"field": "draft", "value": "a long and careful draft about go"})
	require.Equal(t, http.StatusOK, status, "%s", body)
	var forked struct{ Checkpoint, Parent string }
	require.NoError(t, json.Unmarshal(body, &forked))
	assert.Equal(t, written.ID, forked.Parent)
	evs = run(t, ts, "t1", map[string]any{"checkpoint": forked.Checkpoint})
	assert.Equal(t, []string{"judge", "publish"}, started(evs))
	last := evs[len(evs)-1]
	require.Equal(t, "interrupted", last.Name, "%+v", evs)

	state := get[struct {
		Next       []string
		Interrupts []struct{ Node, Payload any }
	}](t, ts, "/studio/api/threads/t1")
	assert.Equal(t, []string{"publish"}, state.Next)
	require.Len(t, state.Interrupts, 1)
	assert.Equal(t, `publish "a long and careful draft about go"?`, state.Interrupts[0].Payload)

	list = get[checkpointList](t, ts, "/studio/api/threads/t1/checkpoints")
	judged = after(t, list, "judge")
	assert.Equal(t, 1, judged.Decisions[0].Rule, "the edited draft is long enough")
	assert.Equal(t, "update", list.Checkpoints[len(list.Checkpoints)-1-indexOf(list, forked.Checkpoint)].Source)

	evs = run(t, ts, "t1", map[string]any{"resume": true})
	assert.Equal(t, []string{"publish"}, started(evs))
	assert.Equal(t, "done", evs[len(evs)-1].Name)
	final := get[struct{ State map[string]json.RawMessage }](t, ts, "/studio/api/threads/t1/checkpoints/"+get[checkpointList](t, ts, "/studio/api/threads/t1/checkpoints").Checkpoints[0].ID)
	assert.JSONEq(t, `true`, string(final.State["published"]))

	// Replay the first branch from after write: the judge rejects again.
	evs = run(t, ts, "t1", map[string]any{"checkpoint": written.ID})
	assert.Equal(t, []string{"judge", "reject"}, started(evs))
	assert.Equal(t, "done", evs[len(evs)-1].Name)
}

// indexOf is the position of id counted from the oldest checkpoint.
func indexOf(list checkpointList, id string) int {
	for i, c := range list.Checkpoints {
		if c.ID == id {
			return len(list.Checkpoints) - 1 - i
		}
	}
	return -1
}

func TestBadRequests(t *testing.T) {
	ts, _ := servePost(t, nil, studio.Options[*post]{})
	run(t, ts, "t1", map[string]any{"input": "go"})
	written := after(t, get[checkpointList](t, ts, "/studio/api/threads/t1/checkpoints"), "write").ID
	fork := "/studio/api/threads/t1/checkpoints/" + written + "/fork"
	for _, c := range []struct {
		name, method, path string
		body               any
		status             int
		param, says        string
	}{
		{"unknown thread", "GET", "/studio/api/threads/nobody/checkpoints", nil, 404, "thread", `thread "nobody": not found`},
		{"unknown thread's state", "GET", "/studio/api/threads/nobody", nil, 404, "thread", `thread "nobody": not found`},
		{"bad thread id", "GET", "/studio/api/threads/bad%20id!/checkpoints", nil, 400, "thread", `thread "bad id!"`},
		{"unknown checkpoint", "GET", "/studio/api/threads/t1/checkpoints/nope", nil, 404, "checkpoint", `checkpoint "nope"`},
		{"bad checkpoint id", "GET", "/studio/api/threads/t1/checkpoints/a%20b", nil, 400, "checkpoint", `checkpoint "a b"`},
		{"fork of an unknown checkpoint", "POST", "/studio/api/threads/t1/checkpoints/nope/fork", map[string]any{"field": "draft", "value": "x"}, 404, "checkpoint", `thread "t1" has no such checkpoint`},
		{"field not in the state", "POST", fork, map[string]any{"field": "title", "value": "x"}, 400, "field", `field "title": not a field of the state of graph post (its fields: topic, draft, length, log, published, decisions)`},
		{"no field", "POST", fork, map[string]any{"value": "x"}, 400, "field", "field: missing"},
		{"no value", "POST", fork, map[string]any{"field": "draft"}, 400, "value", "value: missing"},
		{"value of another type", "POST", fork, map[string]any{"field": "length", "value": "long"}, 400, "value", `value: not a value of field "length"`},
		{"zero value", "POST", fork, map[string]any{"field": "length", "value": 0}, 400, "value", `the zero value of field "length" changes nothing`},
		{"unknown node", "POST", fork, map[string]any{"field": "draft", "value": "x", "as_node": "edit"}, 400, "as_node", `as_node "edit": no such node in graph post (its nodes: START, write, judge, publish, reject)`},
		{"unknown body field", "POST", fork, map[string]any{"field": "draft", "value": "x", "node": "judge"}, 400, "", `unknown field "node"`},
		{"run without input on a new thread", "POST", "/studio/api/threads/fresh/runs", map[string]any{}, 404, "thread", `thread "fresh": no checkpoint to go on from`},
		{"run with input and answer", "POST", "/studio/api/threads/t1/runs", map[string]any{"input": "go", "resume": true}, 400, "resume", "not both"},
		{"replay of an unknown checkpoint", "POST", "/studio/api/threads/t1/runs", map[string]any{"checkpoint": "nope"}, 404, "checkpoint", `checkpoint "nope"`},
		{"unknown URL", "GET", "/studio/api/nothing", nil, 404, "", "unknown URL"},
	} {
		t.Run(c.name, func(t *testing.T) {
			status, body := call(t, ts, c.method, c.path, c.body)
			assert.Equal(t, c.status, status, "%s", body)
			var e struct {
				Error struct{ Message, Param string }
			}
			require.NoError(t, json.Unmarshal(body, &e), "%s", body)
			assert.Contains(t, e.Error.Message, c.says)
			assert.Equal(t, c.param, e.Error.Param)
		})
	}
}

// TestBusyThread: a second run of a thread whose run is going is refused.
func TestBusyThread(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	hold := func(ctx context.Context, node string) error {
		if node != "judge" {
			return nil
		}
		close(entered)
		select {
		case <-release:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	ts, _ := servePost(t, hold, studio.Options[*post]{})
	done := make(chan []event, 1)
	go func() { done <- run(t, ts, "t1", map[string]any{"input": "go"}) }()
	select {
	case <-entered:
	case <-time.After(10 * time.Second):
		t.Fatal("the run never reached judge")
	}
	status, body := call(t, ts, http.MethodPost, "/studio/api/threads/t1/runs", map[string]any{"input": "again"})
	assert.Equal(t, http.StatusConflict, status)
	assert.Contains(t, string(body), `thread \"t1\": a run of the studio is running on it`)
	close(release)
	evs := <-done
	assert.Equal(t, "done", evs[len(evs)-1].Name)
}

// TestOwnerScopesThreads: with Owner, a request sees only its owner's
// threads, by their names without the owner.
func TestOwnerScopesThreads(t *testing.T) {
	ts, store := servePost(t, nil, studio.Options[*post]{Owner: func(r *http.Request) string { return "key-a" }})
	run(t, ts, "mine", map[string]any{"input": "go"})
	_, err := store.Put(context.Background(), checkpoint.Checkpoint{Thread: "key-b/theirs", State: json.RawMessage(`{}`), Metadata: checkpoint.Metadata{Version: 1}})
	require.NoError(t, err)
	threads := get[struct{ Threads []struct{ ID string } }](t, ts, "/studio/api/threads")
	require.Len(t, threads.Threads, 1)
	assert.Equal(t, "mine", threads.Threads[0].ID)
	ids, err := store.Threads(context.Background())
	require.NoError(t, err)
	assert.Contains(t, []string{ids[0].Thread, ids[1].Thread}, "key-a/mine")
	status, _ := call(t, ts, http.MethodGet, "/studio/api/threads/theirs/checkpoints", nil)
	assert.Equal(t, http.StatusNotFound, status)
}
