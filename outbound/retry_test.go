package outbound

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAgain(t *testing.T) {
	cut := errors.New("stream cut before finish_reason")
	p := Policy{Attempts: 3, BaseDelay: 20 * time.Millisecond, MaxDelay: 40 * time.Millisecond}
	var seen []Attempt
	ctx := WithObserver(context.Background(), func(_ context.Context, a Attempt) { seen = append(seen, a) })

	start := time.Now()
	require.True(t, p.Again(ctx, "model", 1, cut))
	require.True(t, p.Again(ctx, "model", 2, cut))
	assert.False(t, p.Again(ctx, "model", 3, cut), "the policy's attempts bound the tries")
	took := time.Since(start)
	require.Len(t, seen, 3)
	assert.GreaterOrEqual(t, took, seen[0].Wait+seen[1].Wait, "the backoff is waited")
	for i, a := range seen[:2] {
		assert.Equal(t, Attempt{Service: "model", Try: i + 1, Error: cut.Error(), Wait: a.Wait, Retried: true}, a)
		assert.LessOrEqual(t, a.Wait, p.BaseDelay<<i, "full jitter under the doubled base")
	}
	assert.Equal(t, Attempt{Service: "model", Try: 3, Error: cut.Error() + "; gave up after 3 tries"}, seen[2])

	short, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	slow := Policy{Attempts: 3, BaseDelay: time.Minute, MaxDelay: time.Minute}
	wait, giveUp := slow.next(short, 1, nil, func(n int64) int64 { return n - 1 })
	assert.Zero(t, wait)
	assert.Equal(t, "a wait of 1m0s would pass the call's deadline", giveUp)

	done, stop := context.WithCancel(ctx)
	stop()
	seen = nil
	assert.False(t, p.Again(done, "model", 1, cut))
	assert.Contains(t, seen[0].Error, "; cancelled")
}
