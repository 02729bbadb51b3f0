package server

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/sgrtest/servers"
)

// sent is the answer of a request sent in the background.
type sent struct {
	status    int
	requestID string
	body      []byte
}

// sendTurn posts a /v1/turns request in the background.
func sendTurn(t *testing.T, url, body string) <-chan sent {
	t.Helper()
	out := make(chan sent, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, url+"/v1/turns", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer k")
		res, err := (&http.Client{Timeout: time.Minute}).Do(req)
		if err != nil {
			out <- sent{body: []byte(err.Error())}
			return
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		out <- sent{status: res.StatusCode, requestID: res.Header.Get("X-Request-Id"), body: b}
	}()
	return out
}

func await(t *testing.T, ch <-chan sent, what string) sent {
	t.Helper()
	select {
	case s := <-ch:
		return s
	case <-time.After(45 * time.Second):
		t.Fatalf("%s: no answer in 45 s", what)
		return sent{}
	}
}

func entered(t *testing.T, g *gate, what string) {
	t.Helper()
	select {
	case <-g.entered:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s did not start", what)
	}
}

// turnBody is a /v1/turns request of session s.
func turnBody(message, session, strategy string) string {
	b, _ := json.Marshal(map[string]string{"message": message, "session_id": session, "multitask_strategy": strategy})
	return string(b)
}

// checkpointsOf lists a session's checkpoints in the shared store, with the
// user message each state holds.
func checkpointsOf(t *testing.T, store, session string) (n int, texts string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := agent.OpenStore(ctx, store)
	require.NoError(t, err)
	defer s.Close()
	cps, err := s.List(ctx, threadOf(keyID(sha256.Sum256([]byte("k"))), session), checkpoint.ListOptions{})
	require.NoError(t, err)
	for _, cp := range cps {
		texts += string(cp.State)
	}
	return len(cps), texts
}

// TestDoubleTextingAcrossReplicas sends a second turn to a session whose
// first turn runs on the other replica, both over one real Postgres, with
// each multitask_strategy: reject refuses it naming the running turn,
// enqueue runs it after the first, interrupt stops the first (keeping what
// it wrote) and runs, rollback stops the first and deletes what it wrote.
func TestDoubleTextingAcrossReplicas(t *testing.T) {
	store := servers.Postgres(t)
	pair := func(t *testing.T) (*gate, []string) {
		g := newGate()
		t.Cleanup(g.release) // before the servers close: cleanups run last first
		return g, []string{gatedReplica(t, store, g), gatedReplica(t, store, g)}
	}
	const first, second = "How do I configure the safety guard?", "What does report mode do?"

	t.Run("reject", func(t *testing.T) {
		g, urls := pair(t)
		session := "reject-" + newID()
		a := sendTurn(t, urls[0], turnBody(first, session, ""))
		entered(t, g, "the first turn")
		res := post(t, urls[1]+"/v1/turns", "k", turnBody(second, session, "reject"))
		require.Equal(t, http.StatusConflict, res.StatusCode)
		msg, _, param, code := errorOf(t, res)
		assert.Equal(t, "session_busy", code)
		assert.Equal(t, "session_id", param)
		g.release()
		got := await(t, a, "the first turn")
		require.Equal(t, http.StatusOK, got.status, "%s", got.body)
		assert.Contains(t, msg, got.requestID, "the refusal names the running turn's request")
	})

	t.Run("enqueue", func(t *testing.T) {
		g, urls := pair(t)
		session := "enqueue-" + newID()
		a := sendTurn(t, urls[0], turnBody(first, session, ""))
		entered(t, g, "the first turn")
		b := sendTurn(t, urls[1], turnBody(second, session, "enqueue"))
		time.Sleep(2 * testStopPoll) // b waits, and does not stop a
		g.release()
		ga, gb := await(t, a, "the first turn"), await(t, b, "the enqueued turn")
		require.Equal(t, http.StatusOK, ga.status, "%s", ga.body)
		require.Equal(t, http.StatusOK, gb.status, "%s", gb.body)
		var ra, rb struct{ Turn int }
		require.NoError(t, json.Unmarshal(ga.body, &ra))
		require.NoError(t, json.Unmarshal(gb.body, &rb))
		assert.Equal(t, 1, ra.Turn)
		assert.Equal(t, 2, rb.Turn, "the enqueued turn runs after the first, on its thread")
	})

	// On the other replica the stop goes through the store's stop lease; on
	// the same replica the turn is stopped at once (runningTurns).
	for _, tc := range []struct {
		strategy string
		replica  int
	}{{"interrupt", 1}, {"rollback", 1}, {"interrupt", 0}, {"rollback", 0}} {
		strategy := tc.strategy
		t.Run(fmt.Sprintf("%s from replica %d", strategy, tc.replica+1), func(t *testing.T) {
			g, urls := pair(t)
			session := strategy + "-" + newID()
			a := sendTurn(t, urls[0], turnBody(first+" (first)", session, ""))
			entered(t, g, "the first turn")
			b := sendTurn(t, urls[tc.replica], turnBody(second+" (second)", session, strategy))
			ga := await(t, a, "the stopped turn") // the gate is shut: only the stop ends it
			require.Equal(t, http.StatusConflict, ga.status, "%s", ga.body)
			var e struct{ Error map[string]any }
			require.NoError(t, json.Unmarshal(ga.body, &e))
			want := map[string]string{"interrupt": "turn_interrupted", "rollback": "turn_rolled_back"}[strategy]
			assert.Equal(t, want, e.Error["code"])
			entered(t, g, "the second turn")
			g.release()
			gb := await(t, b, "the second turn")
			require.Equal(t, http.StatusOK, gb.status, "%s", gb.body)
			var rb struct{ Turn int }
			require.NoError(t, json.Unmarshal(gb.body, &rb))
			assert.Equal(t, 1, rb.Turn, "the second turn builds on no half turn")
			assert.Contains(t, e.Error["message"], gb.requestID[:8], "the stopped turn is told which request stopped it")

			n, texts := checkpointsOf(t, store, session)
			assert.Contains(t, texts, "(second)")
			if strategy == "interrupt" {
				assert.Equal(t, 2, n, "the interrupted turn's checkpoint is kept")
				assert.Contains(t, texts, "(first)")
			} else {
				assert.Equal(t, 1, n, "the rolled back turn's checkpoint is deleted")
				assert.NotContains(t, texts, "(first)")
			}
		})
	}

	t.Run("enqueue times out", func(t *testing.T) {
		g := newGate()
		t.Cleanup(g.release)
		s, err := agent.OpenStore(context.Background(), store)
		require.NoError(t, err)
		t.Cleanup(func() { s.Close() })
		waiting := serve(t, gatedAgent(t, s, g), Options{APIKeys: []string{"k"}, Sessions: true, MultitaskWait: 300 * time.Millisecond}).URL
		session := "timeout-" + newID()
		a := sendTurn(t, gatedReplica(t, store, g), turnBody(first, session, ""))
		entered(t, g, "the first turn")
		res := post(t, waiting+"/v1/chat/completions", "k", chatBody("user", second), sessionHeader, session, multitaskHeader, "enqueue")
		require.Equal(t, http.StatusConflict, res.StatusCode)
		msg, _, param, code := errorOf(t, res)
		assert.Equal(t, "session_wait_timeout", code)
		assert.Equal(t, sessionHeader, param)
		assert.Contains(t, msg, "300ms")
		g.release()
		assert.Equal(t, http.StatusOK, await(t, a, "the first turn").status)
	})

	t.Run("bad strategy", func(t *testing.T) {
		_, urls := pair(t)
		res := post(t, urls[0]+"/v1/turns", "k", turnBody(first, "x", "queue"))
		require.Equal(t, http.StatusBadRequest, res.StatusCode)
		msg, _, param, _ := errorOf(t, res)
		assert.Equal(t, "multitask_strategy", param)
		assert.Contains(t, msg, "reject, enqueue, interrupt, rollback")
	})
}
