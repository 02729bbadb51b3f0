package server

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/sgrtest/servers"
)

// gateWait bounds how long a gate holds a turn: without the session lock
// every turn waits in the gate, and the test must still end.
const gateWait = 10 * time.Second

// gate holds every turn in its Finalize node until it is opened, so that the
// turns of one session overlap for certain, whatever the machine's speed.
type gate struct {
	open    chan struct{}
	entered chan struct{} // a turn reached the gate
	once    sync.Once
}

func newGate() *gate { return &gate{open: make(chan struct{}), entered: make(chan struct{}, 1)} }

func (g *gate) release() { g.once.Do(func() { close(g.open) }) }

// gatedAgent is an agent over the offline agent's knowledge base and the
// given store whose turns wait in Finalize for g.
func gatedAgent(t *testing.T, store checkpoint.Store, g *gate) *agent.Agent {
	t.Helper()
	finalize := offline.Nodes().Finalize
	held := func(ctx context.Context, s *contracts.ChatState) (*contracts.ChatState, error) {
		select {
		case g.entered <- struct{}{}:
		default:
		}
		select {
		case <-g.open:
		case <-time.After(gateWait):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return finalize(ctx, s)
	}
	cfg := config.Default()
	cfg.KB.CacheDir = t.TempDir()
	a, err := agent.New(context.Background(), cfg, agent.Options{Knowledge: offline.Knowledge(), Store: store, Replace: agent.Nodes{Finalize: held}})
	require.NoError(t, err)
	t.Cleanup(func() { a.Close() })
	return a
}

// answer is what one of the concurrent turns got.
type answer struct {
	question  string
	status    int
	requestID string
	turn      int    // of a 200
	code      string // of an error
	typ       string
	param     any
	message   string
}

// askAtOnce sends n chat completions of one session at once, the i-th to
// urls[i%len(urls)], each with a question of its own. It opens the gate once
// all but one have answered (or gateWait has passed) and returns every answer.
func askAtOnce(t *testing.T, urls []string, key, session string, n int, g *gate) []answer {
	t.Helper()
	client := &http.Client{Timeout: time.Minute}
	out := make([]answer, n)
	errs := make(chan error, n)
	answered := make(chan struct{}, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			defer func() { answered <- struct{}{} }()
			q := fmt.Sprintf("%s (question %d)", question, i)
			out[i].question = q
			req, err := http.NewRequest(http.MethodPost, urls[i%len(urls)]+"/v1/chat/completions", strings.NewReader(chatBody("user", q)))
			if err != nil {
				errs <- err
				return
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+key)
			req.Header.Set(sessionHeader, session)
			req.Header.Set(resultHeader, "full")
			res, err := client.Do(req)
			if err != nil {
				errs <- err
				return
			}
			defer res.Body.Close()
			body, err := io.ReadAll(res.Body)
			if err != nil {
				errs <- err
				return
			}
			out[i].status, out[i].requestID = res.StatusCode, res.Header.Get("X-Request-Id")
			if res.StatusCode == http.StatusOK {
				var c chatCompletion
				if err := json.Unmarshal(body, &c); err != nil || c.SGRGraph == nil {
					errs <- fmt.Errorf("question %d: a 200 without its result: %w: %s", i, err, body)
					return
				}
				out[i].turn = c.SGRGraph.Turn
				return
			}
			var e struct {
				Error struct {
					Message string `json:"message"`
					Type    string `json:"type"`
					Param   any    `json:"param"`
					Code    string `json:"code"`
				} `json:"error"`
			}
			if err := json.Unmarshal(body, &e); err != nil {
				errs <- fmt.Errorf("question %d: status %d, not OpenAI's error shape: %w: %s", i, res.StatusCode, err, body)
				return
			}
			out[i].code, out[i].typ, out[i].param, out[i].message = e.Error.Code, e.Error.Type, e.Error.Param, e.Error.Message
		})
	}
	timeout := time.After(gateWait)
	for range n - 1 {
		select {
		case <-answered:
		case <-timeout:
		}
	}
	g.release()
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	return out
}

// requireOneTurnRan checks the answers of turns sent at once to one session
// while the first held it: one ran (200), every other was refused with 409
// naming the running turn's request, and the thread holds exactly the
// turns that answered 200.
func requireOneTurnRan(t *testing.T, url, key, session string, answers []answer) {
	t.Helper()
	var ran []answer
	for _, a := range answers {
		if a.status == http.StatusOK {
			ran = append(ran, a)
		}
	}
	view := threadOfSession(t, url, key, session)
	asked := map[string]bool{}
	for _, m := range view.Messages {
		if m.Role == "user" {
			asked[m.Content] = true
		}
	}
	for _, a := range ran {
		assert.True(t, asked[a.question], "the thread keeps the turn that answered 200 (%q, turn %d)", a.question, a.turn)
	}
	assert.Equal(t, len(ran), view.Turn, "the thread has as many turns as answered 200")
	require.Len(t, ran, 1, "the session's first turn holds it until all the others are answered: %+v", answers)
	for _, a := range answers {
		if a.status == http.StatusOK {
			continue
		}
		assert.Equal(t, http.StatusConflict, a.status, "%+v", a)
		assert.Equal(t, "session_busy", a.code)
		assert.Equal(t, typeInvalidRequest, a.typ)
		assert.Equal(t, sessionHeader, a.param)
		assert.Contains(t, a.message, ran[0].requestID, "a refusal names the running turn's request")
		assert.Contains(t, a.message, session)
		assert.False(t, asked[a.question], "a refused turn leaves no trace in the thread: %q", a.question)
	}
}

// threadOfSession reads a session through GET /v1/threads/{id}.
func threadOfSession(t *testing.T, url, key, session string) threadView {
	t.Helper()
	res := get(t, url+"/v1/threads/"+session+"?limit=200", key)
	require.Equal(t, http.StatusOK, res.StatusCode)
	var v threadView
	require.NoError(t, json.NewDecoder(res.Body).Decode(&v))
	return v
}

// TestTurnsOfOneSessionRunOneAtATime sends 8 turns of one session at once:
// each used to read the thread's last turn, run, and write over the others,
// all answering 200 while the thread kept a few of them.
func TestTurnsOfOneSessionRunOneAtATime(t *testing.T) {
	store := checkpoint.NewMemory()
	t.Cleanup(func() { store.Close() })
	g := newGate()
	ts := serve(t, gatedAgent(t, store, g), Options{APIKeys: []string{"k"}, Sessions: true})
	answers := askAtOnce(t, []string{ts.URL}, "k", "busy", 8, g)
	requireOneTurnRan(t, ts.URL, "k", "busy", answers)

	// The session is free again once its turn has ended.
	res := post(t, ts.URL+"/v1/chat/completions", "k", chatBody("user", "What does report mode do?"), sessionHeader, "busy", resultHeader, "full")
	require.Equal(t, http.StatusOK, res.StatusCode)
	var c chatCompletion
	require.NoError(t, json.NewDecoder(res.Body).Decode(&c))
	assert.Equal(t, 2, c.SGRGraph.Turn)
}

// gatedReplica is one serve process over the shared store whose turns wait
// in g, looking for a stop from another replica every testStopPoll.
func gatedReplica(t *testing.T, store string, g *gate) string {
	t.Helper()
	s, err := agent.OpenStore(context.Background(), store)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	srv := New(gatedAgent(t, s, g), Options{APIKeys: []string{"k"}, Sessions: true})
	srv.stopPoll = testStopPoll
	return serveHandler(t, srv).URL
}

// testStopPoll is how often the replicas of the tests look for a stop from
// another replica: 20 times the served rate, so that a test waiting for
// one waits a few hundredths of a second, not a second.
const testStopPoll = 50 * time.Millisecond

// sharedStores are the stores replicas share, each on a server the test starts.
var sharedStores = []struct {
	name  string
	start func(t *testing.T) string
}{
	{"postgres", func(t *testing.T) string { return servers.Postgres(t) }},
	{"redis", func(t *testing.T) string { return servers.Redis(t) }},
}

// TestTurnsOfOneSessionRunOneAtATimeAcrossReplicas sends 8 turns of one
// session at once to two replicas sharing a real Postgres or Redis: the
// session's lock is in the shared store, not in either process.
func TestTurnsOfOneSessionRunOneAtATimeAcrossReplicas(t *testing.T) {
	for _, tc := range sharedStores {
		t.Run(tc.name, func(t *testing.T) {
			store := tc.start(t)
			g := newGate()
			urls := []string{gatedReplica(t, store, g), gatedReplica(t, store, g)}
			answers := askAtOnce(t, urls, "k", "shared", 8, g)
			requireOneTurnRan(t, urls[1], "k", "shared", answers)
			for i, a := range answers {
				if a.status == http.StatusConflict {
					t.Logf("replica %d refused question %d: %s", i%2, i, a.message)
					break
				}
			}
		})
	}
}

// TestLeaseOfDeadReplicaExpires: a replica that dies mid-turn holds its
// session only until its lease expires; then another replica takes it.
func TestLeaseOfDeadReplicaExpires(t *testing.T) {
	for _, tc := range sharedStores {
		t.Run(tc.name, func(t *testing.T) {
			store := tc.start(t)
			url := replica(t, store)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			dead, err := agent.OpenStore(ctx, store)
			require.NoError(t, err)
			const ttl = time.Second
			lease, err := dead.(checkpoint.Locker).TryLock(ctx, threadOf(keyID(sha256.Sum256([]byte("k"))), "orphan"), "request of-the-dead-replica", ttl)
			require.NoError(t, err)
			taken := time.Now()
			require.NoError(t, dead.Close()) // the replica dies: it neither renews nor frees its lease

			res := post(t, url+"/v1/chat/completions", "k", chatBody("user", question), sessionHeader, "orphan")
			require.Equal(t, http.StatusConflict, res.StatusCode)
			msg, _, _, code := errorOf(t, res)
			assert.Equal(t, "session_busy", code)
			assert.Contains(t, msg, "of-the-dead-replica", "the refusal names the dead replica's request")

			for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(100 * time.Millisecond) {
				require.True(t, time.Now().Before(deadline), "the dead replica's lease of %s has not expired in 15 s", ttl)
				res = post(t, url+"/v1/chat/completions", "k", chatBody("user", question), sessionHeader, "orphan", resultHeader, "full")
				if res.StatusCode != http.StatusConflict {
					break
				}
			}
			require.Equal(t, http.StatusOK, res.StatusCode)
			assert.GreaterOrEqual(t, time.Since(taken), ttl/2, "the lease held for about its ttl")
			var c chatCompletion
			require.NoError(t, json.NewDecoder(res.Body).Decode(&c))
			assert.Equal(t, 1, c.SGRGraph.Turn)
			select {
			case <-lease.Lost():
			case <-time.After(10 * time.Second):
				t.Fatal("the dead replica's lease is not lost")
			}
			_ = lease.Release()
		})
	}
}

// A stream on a busy session is refused with the 409 itself, before any
// header of a stream is sent; so is a /v1/turns request naming the session.
func TestBusySessionRefusesStreamsAndTurns(t *testing.T) {
	store := checkpoint.NewMemory()
	t.Cleanup(func() { store.Close() })
	g := newGate()
	ts := serve(t, gatedAgent(t, store, g), Options{APIKeys: []string{"k"}, Sessions: true})
	t.Cleanup(g.release) // before the server closes: cleanups run last first
	first := make(chan int, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, ts.URL+"/v1/chat/completions", strings.NewReader(chatBody("user", question)))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer k")
		req.Header.Set(sessionHeader, "s")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			first <- 0
			return
		}
		res.Body.Close()
		first <- res.StatusCode
	}()
	select {
	case <-g.entered:
	case <-time.After(30 * time.Second):
		t.Fatal("the first turn did not start")
	}

	stream := `{"model":"sgrgraph","stream":true,"messages":[{"role":"user","content":"What does report mode do?"}]}`
	res := post(t, ts.URL+"/v1/chat/completions", "k", stream, sessionHeader, "s")
	require.Equal(t, http.StatusConflict, res.StatusCode)
	_, _, param, code := errorOf(t, res)
	assert.Equal(t, "session_busy", code)
	assert.Equal(t, sessionHeader, param)

	res = post(t, ts.URL+"/v1/turns", "k", `{"message":"What does report mode do?","session_id":"s"}`)
	require.Equal(t, http.StatusConflict, res.StatusCode)
	_, _, param, code = errorOf(t, res)
	assert.Equal(t, "session_busy", code)
	assert.Equal(t, "session_id", param)

	g.release()
	assert.Equal(t, http.StatusOK, <-first)
}
