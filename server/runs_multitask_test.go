package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/runs"
	"github.com/sgrgraph/sgrgraph/sgrtest/servers"
)

// TestDoubleTextingStopsAWorkersRun: a turn sent to a session whose turn a
// worker runs, with multitask_strategy interrupt or rollback, stops the
// worker's turn (the worker looks for the stop in the queue), runs, and
// the run fails naming the request that stopped it; rollback deletes what
// the run wrote. reject refuses, and enqueue waits for the run.
func TestDoubleTextingStopsAWorkersRun(t *testing.T) {
	ctx := context.Background()
	store := checkpoint.NewMemory() // the server's and the worker's
	g := newGate()
	t.Cleanup(g.release)
	gated := gatedAgent(t, store, g) // the worker's turns wait at the gate
	cfg := config.Default()
	cfg.KB.CacheDir = t.TempDir()
	own, err := agent.New(ctx, cfg, agent.Options{Knowledge: offline.Knowledge(), Store: store})
	require.NoError(t, err)
	t.Cleanup(func() { own.Close() })
	q, err := runs.Open(ctx, servers.Redis(t), runs.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { q.Close() })
	wctx, stop := context.WithCancel(ctx)
	worked := make(chan error, 1)
	go func() { worked <- runs.Worker{Queue: q, Handler: gated}.Work(wctx) }()
	t.Cleanup(func() { stop(); <-worked })
	url := serve(t, own, Options{APIKeys: []string{"k"}, Sessions: true, Runs: q}).URL

	// startRun queues a run of session and waits until its turn runs.
	startRun := func(t *testing.T, session string) string {
		t.Helper()
		res := post(t, url+"/v1/runs", "k", turnBody(question+" (first)", session, ""))
		require.Equal(t, http.StatusAccepted, res.StatusCode)
		var queued struct{ ID string }
		require.NoError(t, json.NewDecoder(res.Body).Decode(&queued))
		entered(t, g, "the worker's turn")
		return queued.ID
	}
	runOf := func(t *testing.T, id string) runs.Run {
		t.Helper()
		var run runs.Run
		require.Eventually(t, func() bool {
			var err error
			run, err = q.Get(ctx, keyIDOf("k"), id)
			require.NoError(t, err)
			return run.Status.Finished()
		}, 30*time.Second, 50*time.Millisecond)
		return run
	}

	t.Run("reject", func(t *testing.T) {
		session := "run-reject-" + newID()
		id := startRun(t, session)
		expectError(t, post(t, url+"/v1/turns", "k", turnBody("second", session, "reject")), http.StatusConflict, "session_id", "session_busy")
		g.open <- struct{}{} // lets one turn through the gate
		assert.Equal(t, runs.Done, runOf(t, id).Status)
	})

	for _, strategy := range []string{"interrupt", "rollback"} {
		t.Run(strategy, func(t *testing.T) {
			session := "run-" + strategy + "-" + newID()
			id := startRun(t, session)
			res := post(t, url+"/v1/turns", "k", turnBody(question+" (second)", session, strategy))
			require.Equal(t, http.StatusOK, res.StatusCode, "the second turn runs once the run's turn has stopped")
			var second struct {
				Turn int
			}
			require.NoError(t, json.NewDecoder(res.Body).Decode(&second))
			assert.Equal(t, 1, second.Turn, "the second turn builds on no half turn")
			run := runOf(t, id)
			assert.Equal(t, runs.Failed, run.Status)
			assert.Contains(t, run.Error, "stopped by request "+res.Header.Get("X-Request-Id"))
			assert.Contains(t, run.Error, "multitask_strategy "+strategy)

			cps, err := store.List(ctx, threadOf(keyIDOf("k"), session), checkpoint.ListOptions{})
			require.NoError(t, err)
			var texts string
			for _, cp := range cps {
				texts += string(cp.State)
			}
			assert.Contains(t, texts, "(second)")
			if strategy == "interrupt" {
				assert.Len(t, cps, 2, "the interrupted run's checkpoint is kept")
				assert.Contains(t, texts, "(first)")
			} else {
				assert.Len(t, cps, 1, "the rolled back run's checkpoint is deleted")
				assert.NotContains(t, texts, "(first)")
			}
		})
	}

	t.Run("enqueue", func(t *testing.T) {
		session := "run-enqueue-" + newID()
		id := startRun(t, session)
		b := sendTurn(t, url, turnBody("second", session, "enqueue"))
		time.Sleep(2 * time.Second) // the worker looks for a stop every second: none comes
		g.open <- struct{}{}
		got := await(t, b, "the enqueued turn")
		require.Equal(t, http.StatusOK, got.status, "%s", got.body)
		assert.True(t, strings.Contains(string(got.body), `"turn":2`), "the enqueued turn follows the run's: %s", got.body)
		assert.Equal(t, runs.Done, runOf(t, id).Status)
	})
}
