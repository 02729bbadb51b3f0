package checkpointtest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/checkpoint"
)

func testThreads(t *testing.T, s checkpoint.Store) {
	none, err := s.Threads(ctx(t))
	require.NoError(t, err)
	assert.Empty(t, none)

	base := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, p := range []struct {
		thread string
		at     time.Duration
	}{{"old", 0}, {"new", 3 * time.Hour}, {"old", time.Hour}, {"mid", 2 * time.Hour}, {"old", 90 * time.Minute}} {
		cp := newCheckpoint(p.thread, 0)
		cp.Metadata.Time = base.Add(p.at)
		put(t, s, cp)
	}
	got, err := s.Threads(ctx(t))
	require.NoError(t, err)
	require.Equal(t, []string{"new", "mid", "old"}, threadNames(got), "the most recently written first")
	want := map[string]struct {
		n  int
		at time.Duration
	}{"new": {1, 3 * time.Hour}, "mid": {1, 2 * time.Hour}, "old": {3, 90 * time.Minute}}
	for _, info := range got {
		w := want[info.Thread]
		assert.Equal(t, w.n, info.Checkpoints, info.Thread)
		assert.True(t, info.Latest.Equal(base.Add(w.at)), "%s latest %s", info.Thread, info.Latest)
	}
}

func testDelete(t *testing.T, s checkpoint.Store) {
	putN(t, s, "gone", 3)
	putN(t, s, "kept", 1)
	require.NoError(t, s.Delete(ctx(t), "gone"))
	_, err := s.Latest(ctx(t), "gone")
	assert.ErrorIs(t, err, checkpoint.ErrNotFound)
	assert.Equal(t, 0, count(t, s, "gone"))
	threads, err := s.Threads(ctx(t))
	require.NoError(t, err)
	assert.Equal(t, []string{"kept"}, threadNames(threads))
	require.NoError(t, s.Delete(ctx(t), "gone"), "deleting a missing thread is no error")

	again := put(t, s, newCheckpoint("gone", 0))
	got, err := s.Latest(ctx(t), "gone")
	require.NoError(t, err)
	assert.Equal(t, again.ID, got.ID, "a deleted thread can start over")
}

func testNotFound(t *testing.T, s checkpoint.Store) {
	cp := put(t, s, newCheckpoint("t1", 0))
	cases := []struct {
		name string
		call func() error
		want string
	}{
		{"get of a missing thread", func() error { _, err := s.Get(ctx(t), "missing", cp.ID); return err }, "missing"},
		{"get of a missing id", func() error { _, err := s.Get(ctx(t), "t1", "no-such-id"); return err }, "no-such-id"},
		{"latest of a missing thread", func() error { _, err := s.Latest(ctx(t), "missing"); return err }, "missing"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.call()
			require.ErrorIs(t, err, checkpoint.ErrNotFound)
			assert.Contains(t, err.Error(), c.want, "the error names what is missing")
		})
	}
}
