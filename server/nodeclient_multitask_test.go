package server

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/sgrtest/servers"
)

// nodeSent is what one run of double.mjs printed, or why it failed.
type nodeSent struct {
	call nodeCall
	out  string
	err  error
}

// countedReplica is gatedReplica whose server says on arrived when a chat
// completion reaches it, before the handler runs.
func countedReplica(t *testing.T, store string, g *gate) (url string, arrived <-chan struct{}) {
	t.Helper()
	s, err := agent.OpenStore(context.Background(), store)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	h := New(gatedAgent(t, s, g), Options{APIKeys: []string{"k"}, Sessions: true})
	h.stopPoll = testStopPoll
	ch := make(chan struct{}, 8)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/chat/completions") {
			select {
			case ch <- struct{}{}:
			default:
			}
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return ts.URL, ch
}

// TestNodeClientDoubleTexting is TestDoubleTextingAcrossReplicas from the
// official Node openai client: two replicas share one real Postgres, the
// client's first completion of a session runs on one, and its second,
// sent with a multitask_strategy (the body's field, or the header), reaches
// the other. Each strategy does what docs/platform.md says, and every
// refusal reaches the client as an APIError of its status and code.
func TestNodeClientDoubleTexting(t *testing.T) {
	script := nodeScript(t, nodeOpenAI(t), "double.mjs")
	store := servers.Postgres(t)
	const first, second = "How do I configure the safety guard?", "What does report mode do?"
	send := func(url, session, strategy, via, q string) <-chan nodeSent {
		ch := make(chan nodeSent, 1)
		go func() {
			calls, out, err := execNode(script, url+"/v1", "k", session, strategy, via, q)
			if err == nil && len(calls) != 1 {
				err = fmt.Errorf("double.mjs printed %d lines, not 1: %s", len(calls), out)
			}
			s := nodeSent{out: out, err: err}
			if err == nil {
				s.call = calls[0]
			}
			ch <- s
		}()
		return ch
	}
	wait := func(t *testing.T, ch <-chan nodeSent, what string) nodeCall {
		t.Helper()
		select {
		case s := <-ch:
			require.NoError(t, s.err, what)
			t.Logf("%s: %s", what, s.out)
			return s.call
		case <-time.After(90 * time.Second):
			t.Fatalf("%s: the Node client got no answer in 90 s", what)
			return nodeCall{}
		}
	}
	answered := func(t *testing.T, c nodeCall, turn int, what string) {
		t.Helper()
		require.True(t, c.OK, "%s: the client raised %s: %s", what, c.Class, c.Message)
		assert.NotEmpty(t, c.Content, "%s: an answer", what)
		if assert.NotNil(t, c.Turn, "%s: the result's turn", what) {
			assert.Equal(t, turn, *c.Turn, "%s: turn", what)
		}
	}
	refused := func(t *testing.T, c nodeCall, code, what string) {
		t.Helper()
		require.False(t, c.OK, "%s: the client reported a success: %q", what, c.Content)
		assert.True(t, c.APIError, "%s: %s is not an APIError: %s", what, c.Class, c.Message)
		assert.Equal(t, "ConflictError", c.Class, "%s: the class the client gives a 409", what)
		if assert.NotNil(t, c.Status, what) {
			assert.Equal(t, http.StatusConflict, *c.Status, "%s: status", what)
		}
		if assert.NotNil(t, c.Code, what) {
			assert.Equal(t, code, *c.Code, "%s: code", what)
		}
	}
	// pair starts two replicas over the store, both turns held at one gate;
	// arrived says when a completion reached the second.
	pair := func(t *testing.T) (*gate, []string, <-chan struct{}) {
		g := newGate()
		t.Cleanup(g.release) // before the servers close: cleanups run last first
		u0, _ := countedReplica(t, store, g)
		u1, arrived := countedReplica(t, store, g)
		return g, []string{u0, u1}, arrived
	}

	for _, via := range []string{"header", "body"} {
		t.Run("reject by "+via, func(t *testing.T) {
			g, urls, _ := pair(t)
			session := "node-reject-" + newID()
			a := send(urls[0], session, "", "", first)
			entered(t, g, "the first turn")
			b := wait(t, send(urls[1], session, "reject", via, second), "the second turn")
			refused(t, b, "session_busy", "the second turn")
			g.release()
			answered(t, wait(t, a, "the first turn"), 1, "the first turn")
		})
	}

	t.Run("enqueue", func(t *testing.T) {
		g, urls, arrived := pair(t)
		session := "node-enqueue-" + newID()
		a := send(urls[0], session, "", "", first)
		entered(t, g, "the first turn")
		b := send(urls[1], session, "enqueue", "body", second)
		select {
		case <-arrived:
		case <-time.After(60 * time.Second):
			t.Fatal("the enqueued completion did not reach the second replica")
		}
		time.Sleep(2 * testStopPoll) // b waits, and does not stop a
		select {
		case s := <-b:
			t.Fatalf("the enqueued turn answered while the first ran: %s %v", s.out, s.err)
		default:
		}
		g.release()
		answered(t, wait(t, a, "the first turn"), 1, "the first turn")
		answered(t, wait(t, b, "the enqueued turn"), 2, "the enqueued turn runs after the first, on its thread")
	})

	for _, strategy := range []string{"interrupt", "rollback"} {
		t.Run(strategy, func(t *testing.T) {
			g, urls, _ := pair(t)
			session := "node-" + strategy + "-" + newID()
			a := send(urls[0], session, "", "", first+" (first)")
			entered(t, g, "the first turn")
			b := send(urls[1], session, strategy, "header", second+" (second)")
			// The gate is shut: only the stop ends the first turn.
			stopped := wait(t, a, "the stopped turn")
			want := map[string]string{"interrupt": "turn_interrupted", "rollback": "turn_rolled_back"}[strategy]
			refused(t, stopped, want, "the stopped turn")
			assert.Contains(t, stopped.Message, "multitask_strategy "+strategy)
			entered(t, g, "the second turn")
			g.release()
			answered(t, wait(t, b, "the second turn"), 1, "the second turn builds on no half turn")

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
}
