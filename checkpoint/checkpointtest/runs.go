package checkpointtest

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/checkpoint"
)

func testConcurrentWriters(t *testing.T, s checkpoint.Store) {
	const writers, puts = 8, 20
	var wg sync.WaitGroup
	got := make([][]string, writers) // each writer's IDs in its Put order
	errs := make([]error, writers)
	for w := range writers {
		wg.Go(func() {
			for i := range puts {
				cp, err := s.Put(ctx(t), newCheckpoint("shared", w*puts+i))
				if err != nil {
					errs[w] = err
					return
				}
				got[w] = append(got[w], cp.ID)
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	seen := map[string]bool{}
	for w, list := range got {
		assert.True(t, slices.IsSorted(list), "writer %d: its IDs sort in its Put order: %v", w, list)
		for _, id := range list {
			assert.False(t, seen[id], "ID %s given twice", id)
			seen[id] = true
		}
	}
	all, err := s.List(ctx(t), "shared", checkpoint.ListOptions{})
	require.NoError(t, err)
	require.Len(t, all, writers*puts, "no Put is lost")
	listed := ids(all)
	assert.True(t, slices.IsSortedFunc(listed, func(a, b string) int { return strings.Compare(b, a) }), "List is newest first by ID")
	for _, id := range listed {
		assert.True(t, seen[id], "listed ID %s was never returned by Put", id)
	}
}

func testLargeState(t *testing.T, s checkpoint.Store) {
	const size = 250 << 10
	var b strings.Builder
	b.WriteString(`{"messages":[`)
	for i := 0; b.Len() < size-100; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		// Varied text, escapes and non-ASCII, which a store must not re-encode.
		fmt.Fprintf(&b, `"message %d: \"quoted\" \\ naïve — ü %x"`, i, i*7919)
	}
	fmt.Fprintf(&b, `],"count":%d}`, 1)
	data := json.RawMessage(b.String())
	require.True(t, json.Valid(data))

	cp := newCheckpoint("big", 0)
	cp.State = data
	out := put(t, s, cp)
	got, err := s.Get(ctx(t), "big", out.ID)
	require.NoError(t, err)
	require.Equal(t, len(data), len(got.State))
	require.True(t, string(data) == string(got.State), "the state reads back byte for byte")
}

func testInterrupted(t *testing.T, s checkpoint.Store) {
	start := put(t, s, newCheckpoint("run", 0))
	paused := newCheckpoint("run", 1)
	paused.Parent, paused.Next = start.ID, []string{"review", "notify"}
	paused.Metadata.Source, paused.Metadata.Node = "interrupt", "review"
	paused.Interrupts = []checkpoint.Interrupt{
		{Node: "review", Index: 0, Payload: json.RawMessage(`{"draft":"answer","ask":"approve?"}`), Value: json.RawMessage(`"yes"`)},
		{Node: "review", Index: 1, Payload: json.RawMessage(`[1,2,3]`)},
		{Node: "notify", Index: -1, Payload: json.RawMessage(`null`)}, // a breakpoint, not an Interrupt call
	}
	paused = put(t, s, paused)
	got, err := s.Latest(ctx(t), "run")
	require.NoError(t, err)
	requireSame(t, paused, got)

	resumed := newCheckpoint("run", 2)
	resumed.Parent, resumed.Next = paused.ID, nil
	resumed.Metadata.Source = "update"
	resumed = put(t, s, resumed)
	got, err = s.Latest(ctx(t), "run")
	require.NoError(t, err)
	assert.Empty(t, got.Interrupts, "the resumed run has no pending interrupts")
	assert.Empty(t, got.Next, "the run ended")
	assert.Equal(t, paused.ID, got.Parent)
	requireSame(t, resumed, got)
}

func testCodecErrors(t *testing.T, s checkpoint.Store) {
	codec := checkpoint.Codec[state]{Version: 2, Migrate: func(from int, data json.RawMessage) (json.RawMessage, error) {
		if from != 1 {
			return nil, fmt.Errorf("no migration from %d", from)
		}
		var old struct{ Texts []string }
		if err := json.Unmarshal(data, &old); err != nil {
			return nil, err
		}
		return json.Marshal(state{Messages: old.Texts, Count: len(old.Texts)})
	}}
	cases := []struct {
		name    string
		version int
		data    string
		want    []string // in the error; nil: decodes
	}{
		{"current", 2, `{"messages":["a"],"count":1}`, nil},
		{"migrated", 1, `{"Texts":["a","b"]}`, nil},
		{"not JSON", 2, `{"messages":["a"`, []string{"version 2", "corrupt", "not valid JSON"}},
		{"wrong shape", 2, `{"count":"one"}`, []string{"version 2", "does not fit"}},
		{"newer version", 7, `{"messages":[]}`, []string{"version 7", "newer", "version 2"}},
		{"unknown old version", 0, `{}`, []string{"version 0", "no migration from 0"}},
		{"negative version", -1, `{}`, []string{"version -1", "not a version"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cp := newCheckpoint("codec", 0)
			cp.Metadata.Version, cp.State = c.version, json.RawMessage(c.data)
			out := put(t, s, cp)
			got, err := s.Get(ctx(t), "codec", out.ID)
			require.NoError(t, err, "a store keeps any bytes; only the codec judges them")
			require.Equal(t, c.data, string(got.State))
			st, err := codec.Decode(got)
			if c.want == nil {
				require.NoError(t, err)
				assert.NotEmpty(t, st.Messages)
				return
			}
			require.Error(t, err)
			for _, w := range append([]string{`"codec"`, out.ID}, c.want...) {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}
