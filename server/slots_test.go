package server

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// With one running slot, a second turn waits for the first, and is counted
// as waiting; it starts once the first ends. The held model signals each
// turn that reaches it, so no sleep decides anything.
func TestRunningTurnsWaitInLine(t *testing.T) {
	held, started := heldAgent(t)
	ts := serve(t, held, Options{RunningTurns: 1})
	send := func(ctx context.Context) <-chan error {
		done := make(chan error, 1)
		go func() {
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL+"/v1/chat/completions", strings.NewReader(chatBody("user", question)))
			res, err := http.DefaultClient.Do(req)
			if err == nil {
				res.Body.Close()
			}
			done <- err
		}()
		return done
	}
	first, endFirst := context.WithCancel(context.Background())
	defer endFirst()
	firstDone := send(first)
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("the first turn did not start")
	}
	second, endSecond := context.WithCancel(context.Background())
	defer endSecond()
	secondDone := send(second)
	require.Eventually(t, func() bool { return scrape(t, ts.URL).get("sgrgraph_turns_waiting") == 1 },
		10*time.Second, 10*time.Millisecond, "the second turn waits for the slot")
	assert.Empty(t, started, "a waiting turn has not reached the model")
	assert.Equal(t, 1.0, scrape(t, ts.URL).get("sgrgraph_turns_in_flight"))

	endFirst()
	<-firstDone
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("the second turn did not start once the slot was free")
	}
	assert.Equal(t, 0.0, scrape(t, ts.URL).get("sgrgraph_turns_waiting"))
	endSecond()
	<-secondDone
}

// A turn whose client leaves while it waits gives its place up.
func TestWaitingTurnLeaves(t *testing.T) {
	s := newSlots(1, newMetrics().waiting)
	release, err := s.take(context.Background())
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = s.take(ctx)
	assert.ErrorIs(t, err, context.Canceled)
	release()
	again, err := s.take(context.Background())
	require.NoError(t, err, "the slot is free again")
	again()

	unbounded := newSlots(0, newMetrics().waiting)
	for range 100 {
		_, err := unbounded.take(ctx)
		require.NoError(t, err, "no bound never waits, even with an ended context")
	}
}
