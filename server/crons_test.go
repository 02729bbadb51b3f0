package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/runs"
	"github.com/sgrgraph/sgrgraph/sgrtest/servers"
)

// TestCronFiresOncePerTickAcrossReplicas: two replicas, each with its own
// queue client and worker, over one real Redis; a cron of @every 1s fires
// one run a tick (each tick's run reaches the webhook once), is listed, and
// stops once deleted.
func TestCronFiresOncePerTickAcrossReplicas(t *testing.T) {
	redisURL := servers.Redis(t)
	rc := &receiver{}
	hook := httptest.NewServer(rc)
	t.Cleanup(hook.Close)
	var urls []string
	for range 2 {
		q, err := runs.Open(context.Background(), redisURL, runs.Options{})
		require.NoError(t, err)
		t.Cleanup(func() { q.Close() })
		ctx, stop := context.WithCancel(context.Background())
		worked := make(chan error, 1)
		go func() { worked <- runs.Worker{Queue: q, Handler: offline}.Work(ctx) }()
		t.Cleanup(func() { stop(); <-worked })
		urls = append(urls, serve(t, offline, Options{APIKeys: []string{"k"}, Runs: q}).URL)
	}

	res := post(t, urls[0]+"/v1/crons", "k", `{"schedule":"@every 1s","message":"`+question+`","webhook":"`+hook.URL+`"}`)
	require.Equal(t, http.StatusCreated, res.StatusCode)
	var c struct {
		ID, Schedule, Message string
		Next                  time.Time `json:"next_run_at"`
	}
	require.NoError(t, json.NewDecoder(res.Body).Decode(&c))
	assert.Equal(t, question, c.Message)

	var listed struct{ Data []struct{ ID string } }
	require.NoError(t, json.NewDecoder(get(t, urls[1]+"/v1/crons", "k").Body).Decode(&listed))
	require.Len(t, listed.Data, 1, "the other replica lists it")
	assert.Equal(t, c.ID, listed.Data[0].ID)

	time.Sleep(4500 * time.Millisecond)
	res, err := http.DefaultClient.Do(mustRequest(t, http.MethodDelete, urls[1]+"/v1/crons/"+c.ID))
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	time.Sleep(2 * time.Second) // the runs fired before the delete deliver

	perRun := map[string]int{}
	for _, call := range rc.got() {
		require.NoError(t, call.verifyError)
		require.True(t, strings.HasPrefix(call.deliveryID, c.ID+":"), call.deliveryID)
		perRun[call.deliveryID]++
	}
	assert.GreaterOrEqual(t, len(perRun), 3, "a tick a second for 4.5 s: %v", perRun)
	assert.LessOrEqual(t, len(perRun), 6, "no tick fired twice under two ids: %v", perRun)
	for id, n := range perRun {
		assert.Equal(t, 1, n, "run %s was delivered %d times", id, n)
	}
	n := len(perRun)
	time.Sleep(2 * time.Second)
	assert.Len(t, rc.got(), n, "a deleted cron fires no more")

	res = post(t, urls[0]+"/v1/crons", "k", `{"schedule":"61 * * * *","message":"x"}`)
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	_, _, param, _ := errorOf(t, res)
	assert.Equal(t, "schedule", param)
	res, err = http.DefaultClient.Do(mustRequest(t, http.MethodDelete, urls[0]+"/v1/crons/"+c.ID))
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusNotFound, res.StatusCode)
}

// TestMissedTicksFireOnce: after every replica was down for many ticks, the
// cron fires once, however many replicas look, and goes on from now.
func TestMissedTicksFireOnce(t *testing.T) {
	redisURL := servers.Redis(t)
	var qs []*runs.Queue
	for range 2 {
		q, err := runs.Open(context.Background(), redisURL, runs.Options{})
		require.NoError(t, err)
		t.Cleanup(func() { q.Close() })
		qs = append(qs, q)
	}
	ctx := context.Background()
	c, err := qs[0].AddCron(ctx, "owner", runs.Cron{Schedule: "*/5 * * * * *", Spec: runs.Spec{Message: question}})
	require.NoError(t, err)
	later := time.Now().Add(time.Hour) // 720 ticks missed
	var fired []runs.Run
	for _, q := range qs {
		f, err := q.FireDue(ctx, later)
		require.NoError(t, err)
		fired = append(fired, f...)
	}
	require.Len(t, fired, 1, "the missed ticks fire once")
	list, err := qs[1].Crons(ctx, "owner")
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.True(t, list[0].Next.After(later), "the next tick is after now: %s", list[0].Next)
	assert.Equal(t, c.ID, list[0].ID)
	other, err := qs[1].Crons(ctx, "someone-else")
	require.NoError(t, err)
	assert.Empty(t, other, "another owner sees none")
}

func mustRequest(t *testing.T, method, url string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer k")
	return req
}
