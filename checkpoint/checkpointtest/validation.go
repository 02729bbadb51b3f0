package checkpointtest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/checkpoint"
)

// Limits every store enforces, the same everywhere so that threads can move
// between stores.
const (
	maxKey   = 256
	maxState = 16 << 20
)

func testValidation(t *testing.T, s checkpoint.Store) {
	long := strings.Repeat("x", maxKey+1)
	withThread := func(thread string) checkpoint.Checkpoint { return newCheckpoint(thread, 0) }
	putErr := func(cp checkpoint.Checkpoint) func() error {
		return func() error { _, err := s.Put(ctx(t), cp); return err }
	}
	edit := func(f func(*checkpoint.Checkpoint)) checkpoint.Checkpoint {
		cp := newCheckpoint("t1", 0)
		f(&cp)
		return cp
	}
	cases := []struct {
		name string
		op   string
		call func() error
		want []string
	}{
		{"put empty thread", "put", putErr(withThread("")), []string{"thread is empty"}},
		{"put long thread", "put", putErr(withThread(long)), []string{"thread is 257 bytes", "limit is 256 bytes"}},
		{"put thread not UTF-8", "put", putErr(withThread("bad\xff")), []string{"thread", "UTF-8"}},
		{"put thread with NUL", "put", putErr(withThread("nul\x00")), []string{"thread", "NUL"}},
		{"put long id", "put", putErr(edit(func(cp *checkpoint.Checkpoint) { cp.ID = long })), []string{"id is 257 bytes", "256"}},
		{"put long parent", "put", putErr(edit(func(cp *checkpoint.Checkpoint) { cp.Parent = long })), []string{"parent is 257 bytes", "256"}},
		{"put big state", "put", putErr(edit(func(cp *checkpoint.Checkpoint) { cp.State = make(json.RawMessage, maxState+1) })),
			[]string{"state is 16777217 bytes", "16 MiB"}},
		{"put payload not JSON", "put", putErr(edit(func(cp *checkpoint.Checkpoint) {
			cp.Interrupts = []checkpoint.Interrupt{{Node: "n", Payload: json.RawMessage("{oops")}}
		})), []string{"interrupts[0].payload", "JSON"}},
		{"put value not JSON", "put", putErr(edit(func(cp *checkpoint.Checkpoint) {
			cp.Interrupts = []checkpoint.Interrupt{{Node: "n", Payload: json.RawMessage("1")}, {Node: "n", Index: 1, Value: json.RawMessage("no")}}
		})), []string{"interrupts[1].value", "JSON"}},
		{"put branch state not JSON", "put", putErr(edit(func(cp *checkpoint.Checkpoint) {
			cp.Branches = []checkpoint.Branch{{Kind: checkpoint.BranchPaused, Node: "n", State: json.RawMessage("{oops")}}
		})), []string{"branches[0].state", "JSON"}},
		{"get empty thread", "get", func() error { _, err := s.Get(ctx(t), "", "x"); return err }, []string{"thread is empty"}},
		{"get empty id", "get", func() error { _, err := s.Get(ctx(t), "t1", ""); return err }, []string{"id is empty"}},
		{"get long id", "get", func() error { _, err := s.Get(ctx(t), "t1", long); return err }, []string{"id is 257 bytes"}},
		{"latest long thread", "latest", func() error { _, err := s.Latest(ctx(t), long); return err }, []string{"thread is 257 bytes"}},
		{"list empty thread", "list", func() error { _, err := s.List(ctx(t), "", checkpoint.ListOptions{}); return err }, []string{"thread is empty"}},
		{"list negative limit", "list", func() error {
			_, err := s.List(ctx(t), "t1", checkpoint.ListOptions{Limit: -1})
			return err
		}, []string{"limit is -1"}},
		{"list long before", "list", func() error {
			_, err := s.List(ctx(t), "t1", checkpoint.ListOptions{Before: long})
			return err
		}, []string{"before is 257 bytes"}},
		{"prune long thread", "prune", func() error { _, err := s.Prune(ctx(t), long, checkpoint.Retention{KeepLast: 1}); return err },
			[]string{"thread is 257 bytes"}},
		{"prune negative keep", "prune", func() error { _, err := s.Prune(ctx(t), "", checkpoint.Retention{KeepLast: -1}); return err },
			[]string{"KeepLast is -1"}},
		{"prune negative age", "prune", func() error { _, err := s.Prune(ctx(t), "", checkpoint.Retention{MaxAge: -1}); return err },
			[]string{"MaxAge is -1ns"}},
		{"delete empty thread", "delete", func() error { return s.Delete(ctx(t), "") }, []string{"thread is empty"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.call()
			require.Error(t, err)
			assert.NotErrorIs(t, err, checkpoint.ErrNotFound)
			for _, w := range append([]string{c.op + ":"}, c.want...) {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
	threads, err := s.Threads(ctx(t))
	require.NoError(t, err)
	assert.Empty(t, threads, "nothing invalid was stored")

	t.Run("limits are inclusive", func(t *testing.T) {
		cp := newCheckpoint(strings.Repeat("t", maxKey), 0)
		cp.ID, cp.Parent = strings.Repeat("i", maxKey), strings.Repeat("p", maxKey)
		cp.State = json.RawMessage(`"` + strings.Repeat("s", maxState-2) + `"`)
		out := put(t, s, cp)
		got, err := s.Get(ctx(t), out.Thread, out.ID)
		require.NoError(t, err)
		assert.Equal(t, maxState, len(got.State))
		assert.Equal(t, cp.Parent, got.Parent)
	})
}
