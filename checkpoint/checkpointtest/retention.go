package checkpointtest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/checkpoint"
)

// count returns how many checkpoints thread has.
func count(t *testing.T, s checkpoint.Store, thread string) int {
	t.Helper()
	list, err := s.List(ctx(t), thread, checkpoint.ListOptions{})
	require.NoError(t, err)
	return len(list)
}

func prune(t *testing.T, s checkpoint.Store, thread string, r checkpoint.Retention) int {
	t.Helper()
	n, err := s.Prune(ctx(t), thread, r)
	require.NoError(t, err)
	return n
}

func testKeepLast(t *testing.T, s checkpoint.Store) {
	a := putN(t, s, "a", 5)
	putN(t, s, "b", 3)

	assert.Equal(t, 0, prune(t, s, "a", checkpoint.Retention{}), "no limits remove nothing")
	assert.Equal(t, 3, prune(t, s, "a", checkpoint.Retention{KeepLast: 2}))
	left, err := s.List(ctx(t), "a", checkpoint.ListOptions{})
	require.NoError(t, err)
	assert.Equal(t, []string{a[4].ID, a[3].ID}, ids(left), "the newest are kept")
	assert.Equal(t, 3, count(t, s, "b"), "other threads are untouched")

	assert.Equal(t, 3, prune(t, s, "", checkpoint.Retention{KeepLast: 1}), "every thread: 1 of a, 2 of b")
	assert.Equal(t, 1, count(t, s, "a"))
	assert.Equal(t, 1, count(t, s, "b"))
	latest, err := s.Latest(ctx(t), "a")
	require.NoError(t, err)
	assert.Equal(t, a[4].ID, latest.ID)
	assert.Equal(t, 0, prune(t, s, "missing", checkpoint.Retention{KeepLast: 1}))
}

func testMaxAge(t *testing.T, s checkpoint.Store) {
	now := time.Now()
	at := func(thread string, step int, age time.Duration) checkpoint.Checkpoint {
		cp := newCheckpoint(thread, step)
		cp.Metadata.Time = now.Add(-age)
		return put(t, s, cp)
	}
	at("a", 0, 3*time.Hour)
	at("a", 1, 2*time.Hour)
	fresh := at("a", 2, time.Minute)
	at("b", 0, 5*time.Hour)
	at("b", 1, 4*time.Hour)
	at("c", 0, 3*time.Hour)
	at("c", 1, 2*time.Minute)
	at("c", 2, time.Minute)

	assert.Equal(t, 2, prune(t, s, "a", checkpoint.Retention{MaxAge: time.Hour}))
	latest, err := s.Latest(ctx(t), "a")
	require.NoError(t, err)
	assert.Equal(t, fresh.ID, latest.ID)
	assert.Equal(t, 2, count(t, s, "b"), "other threads are untouched")

	assert.Equal(t, 3, prune(t, s, "", checkpoint.Retention{MaxAge: time.Hour}), "every thread: all of b, 1 of c")
	_, err = s.Latest(ctx(t), "b")
	assert.ErrorIs(t, err, checkpoint.ErrNotFound, "a thread whose checkpoints all expired is gone")
	threads, err := s.Threads(ctx(t))
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "c"}, threadNames(threads))

	assert.Equal(t, 1, prune(t, s, "", checkpoint.Retention{MaxAge: time.Hour, KeepLast: 1}), "both limits: the older of c")
	assert.Equal(t, 1, count(t, s, "c"))
}

func threadNames(infos []checkpoint.ThreadInfo) []string {
	var out []string
	for _, in := range infos {
		out = append(out, in.Thread)
	}
	return out
}
