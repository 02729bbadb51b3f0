package memorytest

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/memory"
)

func testValidation(t *testing.T, s memory.Store) {
	long := func(n int) string { return strings.Repeat("x", n) }
	ns := []string{"users", "ann"}
	putErr := func(ns []string, key, value string, ttl time.Duration) func() error {
		return func() error { _, err := s.Put(ctx(t), ns, key, json.RawMessage(value), ttl); return err }
	}
	listErr := func(o memory.ListOptions) func() error {
		return func() error { _, err := s.List(ctx(t), o); return err }
	}
	searchErr := func(q memory.Query) func() error {
		return func() error { _, err := s.Search(ctx(t), q); return err }
	}
	cases := []struct {
		name string
		op   string
		call func() error
		want []string
	}{
		{"put no namespace", "put", putErr(nil, "k", `{}`, 0), []string{"namespace is empty", "1 to 8 parts"}},
		{"put too many parts", "put", putErr(make([]string, 9), "k", `{}`, 0), []string{"namespace has 9 parts", "limit is 8"}},
		{"put empty part", "put", putErr([]string{"users", ""}, "k", `{}`, 0), []string{"namespace[1] is empty", "1 to 128 bytes"}},
		{"put long part", "put", putErr([]string{long(129)}, "k", `{}`, 0), []string{"namespace[0] is 129 bytes", "limit is 128 bytes"}},
		{"put control in part", "put", putErr([]string{"a\x1fb"}, "k", `{}`, 0), []string{"namespace[0]", "control character"}},
		{"put empty key", "put", putErr(ns, "", `{}`, 0), []string{"key is empty", "1 to 256 bytes"}},
		{"put long key", "put", putErr(ns, long(257), `{}`, 0), []string{"key is 257 bytes", "limit is 256 bytes"}},
		{"put key not UTF-8", "put", putErr(ns, "bad\xff", `{}`, 0), []string{"key", "UTF-8"}},
		{"put key with NUL", "put", putErr(ns, "a\x00", `{}`, 0), []string{"key", "control character"}},
		{"put array", "put", putErr(ns, "k", `[1]`, 0), []string{"value is a JSON array", "JSON object"}},
		{"put string", "put", putErr(ns, "k", `"x"`, 0), []string{"value is a JSON string", "JSON object"}},
		{"put not JSON", "put", putErr(ns, "k", `{oops`, 0), []string{"value is not valid JSON", "64 KiB"}},
		{"put no value", "put", putErr(ns, "k", ``, 0), []string{"value is not valid JSON"}},
		{"put big value", "put", putErr(ns, "k", `{"a":"`+long(memory.MaxValueBytes)+`"}`, 0), []string{"value is 65544 bytes", "64 KiB"}},
		{"put NUL escape", "put", putErr(ns, "k", `{"a":"\u0000"}`, 0), []string{`\u0000`, "Postgres"}},
		{"put lone surrogate", "put", putErr(ns, "k", `{"a":"\ud800"}`, 0), []string{"surrogate", "Postgres"}},
		{"put number out of range", "put", putErr(ns, "k", `{"a":1e-16384}`, 0), []string{"1e-16384", "exponent must be from -300 to 300"}},
		{"put negative ttl", "put", putErr(ns, "k", `{}`, -time.Second), []string{"ttl is -1s", "0 (never expires)"}},
		{"put long ttl", "put", putErr(ns, "k", `{}`, memory.MaxTTL+1), []string{"ttl is", "876000h0m0s"}},
		{"get empty key", "get", func() error { _, err := s.Get(ctx(t), ns, ""); return err }, []string{"key is empty"}},
		{"get no namespace", "get", func() error { _, err := s.Get(ctx(t), nil, "k"); return err }, []string{"namespace is empty"}},
		{"delete long part", "delete", func() error { return s.Delete(ctx(t), []string{long(129)}, "k") }, []string{"namespace[0] is 129 bytes"}},
		{"list long prefix", "list", listErr(memory.ListOptions{Prefix: make([]string, 9)}), []string{"prefix has 9 parts", "limit is 8"}},
		{"list negative limit", "list", listErr(memory.ListOptions{Limit: -1}), []string{"limit is -1", "0 (10) to 1000"}},
		{"list big limit", "list", listErr(memory.ListOptions{Limit: 1001}), []string{"limit is 1001"}},
		{"list negative offset", "list", listErr(memory.ListOptions{Offset: -1}), []string{"offset is -1"}},
		{"search empty prefix part", "search", searchErr(memory.Query{Prefix: []string{""}}), []string{"prefix[0] is empty"}},
		{"search filter object", "search", searchErr(memory.Query{Filter: map[string]any{"a": []any{1}}}), []string{`filter["a"]`, "scalars"}},
		{"search filter empty field", "search", searchErr(memory.Query{Filter: map[string]any{"": 1}}), []string{`filter field ""`}},
		{"search long text", "search", searchErr(memory.Query{Text: long(4097)}), []string{"text is 4097 bytes", "limit is 4096 bytes"}},
		{"search big limit", "search", searchErr(memory.Query{Limit: 1001}), []string{"limit is 1001"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.call()
			require.Error(t, err)
			assert.NotErrorIs(t, err, memory.ErrNotFound)
			for _, w := range append([]string{c.op + ":"}, c.want...) {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
	assert.Empty(t, search(t, s, memory.Query{}), "nothing invalid was stored")
}

func testLimits(t *testing.T, s memory.Store) {
	ns := make([]string, memory.MaxParts)
	for i := range ns {
		ns[i] = strings.Repeat("é", memory.MaxPartBytes/2) // 2 bytes each
	}
	key := strings.Repeat("k", memory.MaxKeyBytes)
	value := `{"a":"` + strings.Repeat("v", memory.MaxValueBytes-8) + `"}`
	require.Len(t, value, memory.MaxValueBytes)
	it := put(t, s, ns, key, value, memory.MaxTTL)
	got := get(t, s, ns, key)
	requireSame(t, it, got)
	assert.Equal(t, value, string(got.Value))

	filter := map[string]any{"a": strings.Repeat("v", memory.MaxValueBytes-8)}
	for i := range memory.MaxFilterField - 1 {
		filter[strings.Repeat("f", i+1)] = nil
	}
	_, err := s.Search(ctx(t), memory.Query{Prefix: ns, Filter: filter, Text: strings.Repeat("word ", memory.MaxTextBytes/5), Limit: memory.MaxLimit})
	require.NoError(t, err)
	assert.Len(t, search(t, s, memory.Query{Prefix: ns, Filter: map[string]any{"a": filter["a"]}}), 1)
}
