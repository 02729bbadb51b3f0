package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/runs"
	"github.com/sgrgraph/sgrgraph/sgrtest/servers"
)

// receiver is a webhook endpoint that fails its first calls as told, and
// records every call it got.
type receiver struct {
	mu    sync.Mutex
	calls []receivedCall
	fail  []func(w http.ResponseWriter) // the answers of the first calls
}

type receivedCall struct {
	body             []byte
	timestamp, sig   string
	deliveryID       string
	answered         int
	verifyError      error
	receivedAtSecond int64
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	c := receivedCall{body: body, timestamp: r.Header.Get(runs.WebhookTimestampHeader), sig: r.Header.Get(runs.WebhookSignatureHeader),
		deliveryID: r.Header.Get(runs.WebhookIDHeader), receivedAtSecond: time.Now().Unix()}
	c.verifyError = runs.VerifyWebhook(runs.WebhookSecret("k"), c.timestamp, c.sig, body, 5*time.Minute, time.Now())
	rc.mu.Lock()
	n := len(rc.calls)
	c.answered = http.StatusOK
	if n < len(rc.fail) {
		c.answered = 0
	}
	rc.calls = append(rc.calls, c)
	rc.mu.Unlock()
	if n < len(rc.fail) {
		rc.fail[n](w)
		return
	}
	w.WriteHeader(http.StatusOK)
}

func (rc *receiver) got() []receivedCall {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]receivedCall(nil), rc.calls...)
}

// webhookServer is a server over a real Redis queue with one worker,
// whose webhooks time out after timeout and are tried attempts times.
func webhookServer(t *testing.T, timeout time.Duration, attempts int) string {
	t.Helper()
	q, err := runs.Open(context.Background(), servers.Redis(t), runs.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { q.Close() })
	ctx, stop := context.WithCancel(context.Background())
	worked := make(chan error, 1)
	go func() {
		worked <- runs.Worker{Queue: q, Handler: offline, Webhooks: runs.Webhooks{Backoff: 50 * time.Millisecond, Timeout: timeout, Attempts: attempts}}.Work(ctx)
	}()
	t.Cleanup(func() { stop(); <-worked })
	return serve(t, offline, Options{APIKeys: []string{"k"}, Runs: q}).URL
}

// waitDelivered polls the run until its webhook has ended, delivered or
// out of attempts.
func waitDelivered(t *testing.T, url, id string, attempts int) runs.Run {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		var run runs.Run
		require.NoError(t, json.NewDecoder(get(t, url+"/v1/runs/"+id, "k").Body).Decode(&run))
		if run.Webhook != nil && (run.Webhook.Delivered != nil || run.Webhook.Attempts >= attempts) {
			return run
		}
	}
	t.Fatalf("run %s: its webhook did not end in 30 s", id)
	return runs.Run{}
}

// TestWebhookArrivesSignedOnce: a run's end reaches its webhook signed,
// once, after the receiver answered 500 and then hung past the timeout;
// the run records the attempts and keeps its result throughout.
func TestWebhookArrivesSignedOnce(t *testing.T) {
	rc := &receiver{fail: []func(http.ResponseWriter){
		func(w http.ResponseWriter) { w.WriteHeader(http.StatusInternalServerError) },
		func(w http.ResponseWriter) { time.Sleep(700 * time.Millisecond); w.WriteHeader(http.StatusOK) },
	}}
	hook := httptest.NewServer(rc)
	t.Cleanup(hook.Close)
	url := webhookServer(t, 300*time.Millisecond, 5)

	res := post(t, url+"/v1/runs", "k", `{"message":"`+question+`","webhook":"`+hook.URL+`/hook"}`)
	require.Equal(t, http.StatusAccepted, res.StatusCode)
	var queued runs.Run
	require.NoError(t, json.NewDecoder(res.Body).Decode(&queued))
	run := waitDelivered(t, url, queued.ID, 5)
	require.NotNil(t, run.Webhook.Delivered, "%+v", run.Webhook)
	assert.Equal(t, 3, run.Webhook.Attempts)
	assert.Equal(t, http.StatusOK, run.Webhook.LastStatus)
	assert.Equal(t, hook.URL+"/hook", run.Webhook.URL)
	require.Equal(t, runs.Done, run.Status)

	time.Sleep(500 * time.Millisecond) // no delivery follows the one that succeeded
	calls := rc.got()
	require.Len(t, calls, 3)
	var ok []receivedCall
	for _, c := range calls {
		assert.NoError(t, c.verifyError, "every attempt is signed")
		assert.Equal(t, queued.ID, c.deliveryID)
		if c.answered == http.StatusOK {
			ok = append(ok, c)
		}
	}
	require.Len(t, ok, 1, "exactly one delivery succeeded")
	var payload struct {
		Object string
		ID     string
		Status string
		Result *struct{ Answer string }
	}
	require.NoError(t, json.Unmarshal(ok[0].body, &payload))
	assert.Equal(t, "run", payload.Object)
	assert.Equal(t, queued.ID, payload.ID)
	assert.Equal(t, "done", payload.Status)
	require.NotNil(t, payload.Result)
	assert.Equal(t, run.Result.Answer, payload.Result.Answer)
	assert.NotContains(t, string(ok[0].body), "webhook_secret")

	// A body changed on the way, or a replayed delivery, fails verification.
	assert.Error(t, runs.VerifyWebhook(runs.WebhookSecret("k"), ok[0].timestamp, ok[0].sig, append(ok[0].body, ' '), 5*time.Minute, time.Now()))
	assert.Error(t, runs.VerifyWebhook(runs.WebhookSecret("k"), ok[0].timestamp, ok[0].sig, ok[0].body, 5*time.Minute, time.Now().Add(10*time.Minute)))
	assert.Error(t, runs.VerifyWebhook(runs.WebhookSecret("other-key"), ok[0].timestamp, ok[0].sig, ok[0].body, 5*time.Minute, time.Now()))
}

// TestWebhookRedirectNotFollowed: a receiver's redirect is a failed
// attempt, and its target is never called.
func TestWebhookRedirectNotFollowed(t *testing.T) {
	target := &receiver{}
	inside := httptest.NewServer(target)
	t.Cleanup(inside.Close)
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, inside.URL+"/admin", http.StatusTemporaryRedirect)
	}))
	t.Cleanup(hook.Close)
	url := webhookServer(t, time.Second, 2)
	res := post(t, url+"/v1/runs", "k", `{"message":"`+question+`","webhook":"`+hook.URL+`"}`)
	require.Equal(t, http.StatusAccepted, res.StatusCode)
	var queued runs.Run
	require.NoError(t, json.NewDecoder(res.Body).Decode(&queued))
	run := waitDelivered(t, url, queued.ID, 2)
	assert.Nil(t, run.Webhook.Delivered)
	assert.Equal(t, 2, run.Webhook.Attempts)
	assert.Equal(t, http.StatusTemporaryRedirect, run.Webhook.LastStatus)
	assert.Contains(t, run.Webhook.LastError, "307")
	assert.Equal(t, runs.Done, run.Status, "a failed delivery leaves the run as it ended")
	assert.Empty(t, target.got(), "the redirect's target is not called")
}

// TestWebhookHostsRefused: a webhook to a host that is neither loopback
// nor listed in serve.webhook_hosts is refused before anything is queued.
func TestWebhookHostsRefused(t *testing.T) {
	url := webhookServer(t, time.Second, 1)
	for _, hook := range []string{"http://169.254.169.254/latest/meta-data", "http://10.0.0.5/hook", "https://example.com/hook", "ftp://localhost/x", "http://user:pw@localhost/x"} {
		res := post(t, url+"/v1/runs", "k", `{"message":"`+question+`","webhook":"`+hook+`"}`)
		require.Equal(t, http.StatusBadRequest, res.StatusCode, hook)
		_, _, param, _ := errorOf(t, res)
		assert.Equal(t, "webhook", param, hook)
	}
}
