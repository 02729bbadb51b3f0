package rules

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewIDSortsBySequence(t *testing.T) {
	seqs := []int64{1, 2, 9, 10, 99, 100, 12345, 1 << 40, 1<<63 - 1}
	var ids []string
	for _, s := range seqs {
		ids = append(ids, NewID(s))
	}
	assert.True(t, slices.IsSorted(ids), "%v", ids)
	assert.NotEqual(t, NewID(1), NewID(1), "the random suffix tells apart IDs of the same sequence")
	assert.Regexp(t, `^0000000000000000042-[0-9a-f]{8}$`, NewID(42))
}

func TestExpired(t *testing.T) {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	ages := []time.Duration{time.Minute, time.Hour, 2 * time.Hour, 3 * time.Hour} // newest first
	times := make([]time.Time, len(ages))
	for i, a := range ages {
		times[i] = now.Add(-a)
	}
	cases := []struct {
		name     string
		keepLast int
		maxAge   time.Duration
		want     []int
	}{
		{"no limits", 0, 0, nil},
		{"keep last 2", 2, 0, []int{2, 3}},
		{"keep more than there are", 10, 0, nil},
		{"max age 90m", 0, 90 * time.Minute, []int{2, 3}},
		{"max age exactly an age keeps it", 0, time.Hour, []int{2, 3}},
		{"max age removes even the newest", 0, time.Second, []int{0, 1, 2, 3}},
		{"either limit removes", 3, 150 * time.Minute, []int{3}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, Expired(times, c.keepLast, c.maxAge, now))
		})
	}
}

func TestValidation(t *testing.T) {
	ok := strings.Repeat("k", MaxKeyBytes)
	cases := []struct {
		name string
		err  error
		want string // "" means valid
	}{
		{"key at limit", Key("thread", ok), ""},
		{"key over limit", Key("thread", ok+"k"), "thread is 257 bytes; the limit is 256 bytes"},
		{"empty key", Key("id", ""), "id is empty"},
		{"optional empty", OptionalKey("parent", ""), ""},
		{"not UTF-8", Key("thread", "\xc3"), "not valid UTF-8"},
		{"NUL", Key("thread", "a\x00b"), "NUL"},
		{"state at limit", Put("t", "", "", MaxStateBytes, time.Time{}), ""},
		{"state over limit", Put("t", "", "", MaxStateBytes+1, time.Time{}), "the limit is 16 MiB"},
		{"time out of range", Put("t", "", "", 0, time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC)), "metadata time"},
		{"list limit", List("t", -5, ""), "limit is -5"},
		{"retention all threads", Retention("", 1, time.Hour), ""},
		{"retention keep", Retention("", -1, 0), "KeepLast is -1"},
		{"payload", Interrupt(2, []byte("{"), nil), "interrupts[2].payload"},
		{"value", Interrupt(0, nil, []byte("x")), "interrupts[0].value"},
		{"payload and value", Interrupt(0, []byte(`{"a":1}`), []byte(`"yes"`)), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.want == "" {
				require.NoError(t, c.err)
				return
			}
			require.ErrorContains(t, c.err, c.want)
		})
	}
}

func TestContextAddsTimeoutOnlyWhenMissing(t *testing.T) {
	ctx, cancel := Context(t.Context())
	defer cancel()
	deadline, ok := ctx.Deadline()
	require.True(t, ok)
	assert.WithinDuration(t, time.Now().Add(DefaultTimeout), deadline, time.Second)

	ctx, cancel = Context(nil) //nolint:staticcheck // SA1012: a nil context must not panic

	defer cancel()
	_, ok = ctx.Deadline()
	assert.True(t, ok)
}
