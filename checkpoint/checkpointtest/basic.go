package checkpointtest

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/checkpoint"
)

func testRoundTrip(t *testing.T, s checkpoint.Store) {
	first := put(t, s, newCheckpoint("t1", 0))
	in := checkpoint.Checkpoint{
		Thread: "t1",
		Parent: first.ID,
		Next:   []string{"tools", "judge"},
		Interrupts: []checkpoint.Interrupt{
			{ID: "a1", Node: "tools", Index: 0, Payload: json.RawMessage(`{"question":"Proceed?","options":["yes","no"]}`)},
			{ID: "b2", Node: "tools", Index: 1, Payload: json.RawMessage(`"second"`)},
		},
		Branches: []checkpoint.Branch{ // a run paused in parallel branches keeps their work
			{Kind: checkpoint.BranchBase, Node: "plan", State: json.RawMessage(`{"count":1}`)},
			{Kind: checkpoint.BranchArrived, Node: "judge", Join: "merge", State: json.RawMessage(`{"count":2}`)},
			{Kind: checkpoint.BranchPaused, Node: "tools", State: json.RawMessage(`{"count":1}`)},
		},
		Metadata: checkpoint.Metadata{Step: 1, Node: "plan", Source: "loop", Version: 3},
		State:    json.RawMessage(`{"messages":["hello","world"],"count":2}`),
	}
	before := time.Now()
	out, err := s.Put(ctx(t), in)
	require.NoError(t, err)
	after := time.Now()

	require.NotEmpty(t, out.ID, "Put assigns an ID")
	assert.Greater(t, out.ID, first.ID, "IDs sort in Put order")
	require.False(t, out.Metadata.Time.Before(before.Add(-time.Second)) || out.Metadata.Time.After(after.Add(time.Second)),
		"Put sets Metadata.Time to now: %s not in [%s, %s]", out.Metadata.Time, before, after)
	want := in
	want.ID, want.Metadata.Time, want.State = out.ID, out.Metadata.Time, slices.Clone(in.State)
	want.Interrupts, want.Branches = slices.Clone(in.Interrupts), slices.Clone(in.Branches)
	want.Branches[0].State = slices.Clone(in.Branches[0].State)
	requireSame(t, want, out)

	in.State[2] = 'X' // the store must have kept its own copy
	in.Branches[0].State[2] = 'X'
	in.Interrupts[0].ID = "changed"
	got, err := s.Get(ctx(t), "t1", out.ID)
	require.NoError(t, err)
	requireSame(t, want, got)
}

func testCallerChoices(t *testing.T, s checkpoint.Store) {
	when := time.Date(2024, 3, 1, 12, 30, 45, 123456789, time.FixedZone("CET", 3600))
	cp := newCheckpoint("t1", 0)
	cp.ID, cp.Metadata.Time = "imported-0001", when
	out := put(t, s, cp)
	assert.Equal(t, "imported-0001", out.ID, "a caller-chosen ID is kept")
	assert.True(t, out.Metadata.Time.Equal(when), "a caller-chosen time is kept: %s", out.Metadata.Time)

	got, err := s.Get(ctx(t), "t1", "imported-0001")
	require.NoError(t, err)
	requireSame(t, out, got)

	_, err = s.Put(ctx(t), cp)
	require.Error(t, err, "Put never overwrites a checkpoint")
	assert.NotErrorIs(t, err, checkpoint.ErrNotFound)
	assert.Contains(t, err.Error(), "imported-0001")

	next := put(t, s, newCheckpoint("t1", 1))
	latest, err := s.Latest(ctx(t), "t1")
	require.NoError(t, err)
	assert.Equal(t, next.ID, latest.ID, "the latest is the one put last, whatever its ID")
}

func testLatest(t *testing.T, s checkpoint.Store) {
	_, err := s.Latest(ctx(t), "t1")
	require.ErrorIs(t, err, checkpoint.ErrNotFound)
	cps := putN(t, s, "t1", 3)
	got, err := s.Latest(ctx(t), "t1")
	require.NoError(t, err)
	requireSame(t, cps[2], got)
	assert.True(t, slices.IsSorted(ids(cps)), "IDs sort in Put order: %v", ids(cps))
}

func testList(t *testing.T, s checkpoint.Store) {
	cps := putN(t, s, "t1", 5)
	id := func(i int) string { return cps[i].ID }
	cases := []struct {
		name string
		o    checkpoint.ListOptions
		want []string
	}{
		{"all", checkpoint.ListOptions{}, []string{id(4), id(3), id(2), id(1), id(0)}},
		{"limit", checkpoint.ListOptions{Limit: 2}, []string{id(4), id(3)}},
		{"limit above count", checkpoint.ListOptions{Limit: 10}, []string{id(4), id(3), id(2), id(1), id(0)}},
		{"before", checkpoint.ListOptions{Before: id(3)}, []string{id(2), id(1), id(0)}},
		{"before and limit", checkpoint.ListOptions{Before: id(3), Limit: 2}, []string{id(2), id(1)}},
		{"before the first", checkpoint.ListOptions{Before: id(0)}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := s.List(ctx(t), "t1", c.o)
			require.NoError(t, err)
			assert.Equal(t, c.want, nilIfEmpty(ids(got)))
		})
	}
	got, err := s.List(ctx(t), "t1", checkpoint.ListOptions{Limit: 1})
	require.NoError(t, err)
	requireSame(t, cps[4], got[0])

	_, err = s.List(ctx(t), "t1", checkpoint.ListOptions{Before: "no-such-id"})
	require.ErrorIs(t, err, checkpoint.ErrNotFound, "a missing Before is not silently an empty page")
	none, err := s.List(ctx(t), "missing", checkpoint.ListOptions{})
	require.NoError(t, err)
	assert.Empty(t, none)
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

func testFork(t *testing.T, s checkpoint.Store) {
	main := putN(t, s, "t1", 3)
	fork := newCheckpoint("t1", 1)
	fork.Parent, fork.Metadata.Source = main[0].ID, "fork"
	forked := put(t, s, fork)
	assert.Equal(t, main[0].ID, forked.Parent)

	latest, err := s.Latest(ctx(t), "t1")
	require.NoError(t, err)
	assert.Equal(t, forked.ID, latest.ID, "the latest is the newest put, even on a fork")

	cont := newCheckpoint("t1", 3)
	cont.Parent = main[2].ID
	continued := put(t, s, cont)
	all, err := s.List(ctx(t), "t1", checkpoint.ListOptions{})
	require.NoError(t, err)
	assert.Equal(t, []string{continued.ID, forked.ID, main[2].ID, main[1].ID, main[0].ID}, ids(all), "both branches are listed")
	assert.Equal(t, main[2].ID, all[0].Parent)
	assert.Equal(t, main[0].ID, all[1].Parent)
}

func testIsolation(t *testing.T, s checkpoint.Store) {
	// Names that would collide in a store that joins keys with ":" naively.
	threads := []string{"a", "a:1", "a:cp:x", "a:order", "with space", "юникод"}
	got := map[string][]checkpoint.Checkpoint{}
	for i, th := range threads {
		got[th] = putN(t, s, th, i+1)
	}
	for i, th := range threads {
		list, err := s.List(ctx(t), th, checkpoint.ListOptions{})
		require.NoError(t, err)
		require.Len(t, list, i+1, th)
		for _, cp := range list {
			assert.Equal(t, th, cp.Thread)
		}
		for _, other := range threads {
			if other == th {
				continue
			}
			for _, cp := range got[other] {
				if slices.Contains(ids(got[th]), cp.ID) {
					continue // the same ID in two threads is allowed
				}
				_, err := s.Get(ctx(t), th, cp.ID)
				assert.ErrorIs(t, err, checkpoint.ErrNotFound, "thread %q must not see %q of %q", th, cp.ID, other)
			}
		}
	}
	require.NoError(t, s.Delete(ctx(t), "a"))
	list, err := s.List(ctx(t), "a:1", checkpoint.ListOptions{})
	require.NoError(t, err)
	assert.Len(t, list, 2, "deleting a thread leaves the others")
}
