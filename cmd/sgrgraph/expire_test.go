package main

import (
	"context"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/config"
)

// serve drops the sessions idle for longer than threads.max_age, whose
// default is 30 days, and keeps the others.
func TestServeExpiresIdleThreads(t *testing.T) {
	assert.Equal(t, 720*time.Hour, config.Default().Threads.MaxAge, "the default expiry")
	assert.Equal(t, time.Hour, sweepEvery(720*time.Hour))
	assert.Equal(t, time.Minute, sweepEvery(2*time.Minute))

	ctx, cancel := context.WithCancel(t.Context())
	store := checkpoint.NewMemory()
	for _, th := range []struct {
		name string
		idle time.Duration
	}{{"key/old", 31 * 24 * time.Hour}, {"key/fresh", time.Hour},
		// An assistant's version stays whatever its age; the record of a
		// conversation's assistant goes with the conversation.
		{"assistant:zephyr", 40 * 24 * time.Hour}, {"assistant-of:key/fresh", 40 * 24 * time.Hour}, {"assistant-of:key/old", 2 * time.Hour}} {
		_, err := store.Put(ctx, checkpoint.Checkpoint{Thread: th.name, State: []byte(`{}`), Metadata: checkpoint.Metadata{Time: time.Now().Add(-th.idle)}})
		require.NoError(t, err)
	}
	done := make(chan struct{})
	go func() { defer close(done); expireThreads(ctx, store, 720*time.Hour, zerolog.Nop()) }()
	require.Eventually(t, func() bool {
		_, err := store.Latest(ctx, "key/old")
		return err != nil
	}, 10*time.Second, 10*time.Millisecond, "the first sweep runs at once")
	cancel()
	<-done
	threads, err := store.Threads(context.Background())
	require.NoError(t, err)
	var names []string
	for _, th := range threads {
		names = append(names, th.Thread)
	}
	assert.ElementsMatch(t, []string{"key/fresh", "assistant:zephyr", "assistant-of:key/fresh"}, names)
}
