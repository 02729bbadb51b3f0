package rules

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Byte order of encodings is the order of the parts, and a range holds
// exactly the namespaces under its prefix.
func TestEncodeOrderAndRange(t *testing.T) {
	spaces := [][]string{{"a"}, {"a", "b"}, {"a", "b", "c"}, {"a b"}, {"a!"}, {"ab"}, {"b"}, {"a", "ba"}, {"я"}}
	byParts := slices.Clone(spaces)
	slices.SortFunc(byParts, slices.Compare)
	byBytes := slices.Clone(spaces)
	slices.SortFunc(byBytes, func(x, y []string) int { return strings.Compare(Encode(x), Encode(y)) })
	assert.Equal(t, byParts, byBytes)

	for _, prefix := range spaces {
		lo, hi, bounded := Range(prefix)
		require.True(t, bounded)
		for _, ns := range spaces {
			e := Encode(ns)
			assert.Equal(t, Under(ns, prefix), e >= lo && e < hi, "%q under %q", ns, prefix)
			assert.Equal(t, ns, Decode(e))
		}
	}
	_, _, bounded := Range(nil)
	assert.False(t, bounded)
}

func TestValidation(t *testing.T) {
	long := func(n int) string { return strings.Repeat("k", n) }
	cases := []struct {
		name string
		err  error
		want string // "" means valid
	}{
		{"at limits", Put(slices.Repeat([]string{long(MaxPartBytes)}, MaxParts), long(MaxKeyBytes), []byte(`{}`), MaxTTL), ""},
		{"no namespace", Namespace(nil), "namespace is empty; it needs 1 to 8 parts"},
		{"too many parts", Namespace(make([]string, 9)), "namespace has 9 parts; the limit is 8"},
		{"empty part", Namespace([]string{"a", ""}), "namespace[1] is empty; it needs 1 to 128 bytes"},
		{"long part", Namespace([]string{long(129)}), "namespace[0] is 129 bytes; the limit is 128 bytes"},
		{"control in part", Namespace([]string{"a\x1fb"}), "U+001F"},
		{"bad UTF-8 key", Key("\xff"), "not valid UTF-8"},
		{"long key", Key(long(257)), "key is 257 bytes; the limit is 256 bytes"},
		{"negative ttl", TTL(-time.Second), "ttl is -1s; it must be from 0 (never expires)"},
		{"array value", Value([]byte(` [1]`)), "value is a JSON array; it must be a JSON object"},
		{"not JSON", Value([]byte(`{`)), "value is not valid JSON"},
		{"big value", Value([]byte(`{"a":"` + long(MaxValueBytes) + `"}`)), "the limit is 64 KiB (65536 bytes)"},
		{"NUL escape", Value([]byte(`{"a":"x\u0000"}`)), `\u0000 at byte 7`},
		{"escaped backslash is no escape", Value([]byte(`{"a":"\\u0000"}`)), ""},
		{"lone high surrogate", Value([]byte(`{"a":"\ud83d"}`)), "unpaired UTF-16 surrogate"},
		{"lone low surrogate", Value([]byte(`{"a":"\ude00x"}`)), "unpaired UTF-16 surrogate"},
		{"paired surrogates", Value([]byte(`{"\ud83d\ude00":"\ud83d\ude00"}`)), ""},
		{"numbers in range", Value([]byte(`{"a":[1e-300,-1.5E+300,0.5],"1e999":"1e999"}`)), ""},
		{"big exponent", Value([]byte(`{"a":1e301}`)), "the number 1e301 at byte 5; its exponent must be from -300 to 300"},
		{"small exponent", Value([]byte(`{"a":[1,-2e-16384]}`)), "the number -2e-16384 at byte 8"},
		{"long number", Value([]byte(`{"a":` + strings.Repeat("9", 101) + `}`)), "a number of 101 characters at byte 5; the limit is 100"},
		{"limit", Page(1001, 0), "limit is 1001; it must be from 0 (10) to 1000"},
		{"offset", Page(0, -1), "offset is -1"},
		{"filter object", Filter(map[string]any{"a": map[string]any{}}), `filter["a"] is a map[string]interface {}; a filter compares scalars`},
		{"filter NaN", Filter(map[string]any{"a": float32(0) / float32(zero())}), "JSON cannot hold"},
		{"filter scalars", Filter(map[string]any{"s": "x", "n": 1, "f": 1.5, "b": true, "z": nil}), ""},
		{"text", Query(nil, nil, long(MaxTextBytes+1), 0, 0), "text is 4097 bytes; the limit is 4096 bytes"},
		{"prefix part", Query([]string{""}, nil, "", 0, 0), "prefix[0] is empty"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.want == "" {
				assert.NoError(t, c.err)
			} else {
				assert.ErrorContains(t, c.err, c.want)
			}
		})
	}
}

func zero() int { return 0 }

func TestContextDefaultTimeout(t *testing.T) {
	ctx, cancel := Context(context.Background())
	defer cancel()
	deadline, ok := ctx.Deadline()
	require.True(t, ok)
	assert.WithinDuration(t, time.Now().Add(DefaultTimeout), deadline, time.Second)

	mine, stop := context.WithTimeout(context.Background(), time.Minute)
	defer stop()
	ctx, cancel = Context(mine)
	defer cancel()
	assert.Equal(t, mine, ctx, "a caller's deadline is kept")
}
