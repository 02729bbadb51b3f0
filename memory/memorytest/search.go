package memorytest

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/memory"
)

// putInOrder stores the items one after another, a little apart, so that
// each is updated later than the one before.
func putInOrder(t *testing.T, s memory.Store, ns []string, kv ...string) {
	t.Helper()
	for i := 0; i < len(kv); i += 2 {
		put(t, s, ns, kv[i], kv[i+1], 0)
		time.Sleep(time.Millisecond)
	}
}

func testList(t *testing.T, s memory.Store) {
	for _, ns := range [][]string{{"users", "bob", "prefs"}, {"users", "ann", "prefs"}, {"users", "ann", "facts"}, {"teams", "x"}, {"users", "ann b"}} {
		put(t, s, ns, "k1", `{}`, 0)
		put(t, s, ns, "k2", `{}`, time.Hour) // two items, one namespace listed once
	}
	list := func(o memory.ListOptions) [][]string {
		out, err := s.List(ctx(t), o)
		require.NoError(t, err)
		return out
	}
	assert.Equal(t, [][]string{{"teams", "x"}, {"users", "ann", "facts"}, {"users", "ann", "prefs"}, {"users", "ann b"}, {"users", "bob", "prefs"}},
		list(memory.ListOptions{}), "in the order of their parts")
	assert.Equal(t, [][]string{{"users", "ann", "facts"}, {"users", "ann", "prefs"}}, list(memory.ListOptions{Prefix: []string{"users", "ann"}}),
		"a prefix is whole parts: ann b is not under ann")
	assert.Equal(t, [][]string{{"users", "ann", "prefs"}, {"users", "ann b"}}, list(memory.ListOptions{Prefix: []string{"users"}, Limit: 2, Offset: 1}))
	assert.Equal(t, [][]string{{"teams", "x"}}, list(memory.ListOptions{Prefix: []string{"teams", "x"}}), "a namespace is under itself")
	assert.Empty(t, list(memory.ListOptions{Prefix: []string{"user"}}))
	assert.Empty(t, list(memory.ListOptions{Offset: 5}))
}

func testSearchPrefix(t *testing.T, s memory.Store) {
	ann, annB := []string{"users", "ann"}, []string{"users", "ann b"}
	for i := range 12 {
		put(t, s, append(ann, fmt.Sprint(i%2)), fmt.Sprintf("k%02d", i), `{}`, 0)
		time.Sleep(time.Millisecond)
	}
	put(t, s, annB, "other", `{}`, 0)
	time.Sleep(time.Millisecond)
	put(t, s, ann, "k00", `{"moved":true}`, 0) // replaced: now the newest

	got := search(t, s, memory.Query{Prefix: ann, Limit: 100})
	want := []string{"k00", "k11", "k10", "k09", "k08", "k07", "k06", "k05", "k04", "k03", "k02", "k01", "k00"}
	assert.Equal(t, want, keys(got), "newest first; ann b is not under ann")
	assert.Equal(t, ann, got[0].Namespace)
	assert.Equal(t, want[:memory.DefaultLimit], keys(search(t, s, memory.Query{Prefix: ann})), "Limit 0 is DefaultLimit")
	assert.Equal(t, want[3:5], keys(search(t, s, memory.Query{Prefix: ann, Limit: 2, Offset: 3})))
	assert.Empty(t, search(t, s, memory.Query{Prefix: ann, Offset: 50}))
	assert.Equal(t, []string{"k11", "k09"}, keys(search(t, s, memory.Query{Prefix: append(ann, "1"), Limit: 2})))
	assert.Len(t, search(t, s, memory.Query{Limit: 100}), 14, "no prefix: every namespace")
	for _, it := range got {
		assert.Zero(t, it.Score, "no text: no score")
	}
}

func testSearchFilter(t *testing.T, s memory.Store) {
	ns := []string{"users", "ann"}
	putInOrder(t, s, ns,
		"a", `{"kind":"pref","level":1,"ok":true,"note":null,"tags":["x"],"obj":{"k":1}}`,
		"b", `{"kind":"pref","level":1.0,"ok":false, "ratio": 0.1}`,
		"c", `{"kind":"fact","level":2,"ok":true,"big":12345678901234567890}`,
		"d", `{"kind":"pref","level":"1"}`,
	)
	put(t, s, []string{"users", "bob"}, "e", `{"kind":"pref"}`, 0)
	cases := []struct {
		name   string
		filter map[string]any
		want   []string
	}{
		{"string", map[string]any{"kind": "pref"}, []string{"d", "b", "a"}},
		{"string is exact", map[string]any{"kind": "PREF"}, []string{}},
		{"numbers by value", map[string]any{"level": 1}, []string{"b", "a"}},
		{"a JSON number", map[string]any{"level": json.Number("10e-1")}, []string{"b", "a"}},
		{"a float", map[string]any{"ratio": 0.1}, []string{"b"}},
		{"a number beyond float64's digits", map[string]any{"big": json.Number("12345678901234567890")}, []string{"c"}},
		{"a number is not its string", map[string]any{"level": "1"}, []string{"d"}},
		{"bool", map[string]any{"ok": false}, []string{"b"}},
		{"every field", map[string]any{"kind": "pref", "ok": true}, []string{"a"}},
		{"null is a value", map[string]any{"note": nil}, []string{"a"}},
		{"a missing field is not null", map[string]any{"missing": nil}, []string{}},
		{"an array is no scalar", map[string]any{"tags": "x"}, []string{}},
		{"an object is no scalar", map[string]any{"obj": 1}, []string{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, keys(search(t, s, memory.Query{Prefix: ns, Filter: c.filter})))
		})
	}
	assert.Equal(t, []string{"e", "d", "b", "a"}, keys(search(t, s, memory.Query{Filter: map[string]any{"kind": "pref"}})))
}

func testSearchText(t *testing.T, s memory.Store) {
	ann := []string{"users", "ann"}
	putInOrder(t, s, ann,
		"tea", `{"kind":"pref","text":"I drink green tea without sugar"}`,
		"cats", `{"text":"Ann likes cats","tags":["pets"]}`,
		"coffee", `{"text":"Пью кофе без сахара"}`,
		"nested", `{"kind":"fact","note":{"deep":["my favourite drinks are coffee and tea"]}}`,
		"keys", `{"drink":1,"tea":true}`,
	)
	put(t, s, []string{"users", "bob"}, "tea", `{"text":"Bob drinks tea"}`, 0)
	text := func(q string) []string { return keys(search(t, s, memory.Query{Prefix: ann, Text: q})) }

	assert.Equal(t, []string{"nested", "tea"}, text("tea"), "equal scores: newest first; keys and numbers are not text")
	assert.Equal(t, []string{"cats"}, text("cat"), "English stemming")
	assert.Equal(t, []string{"coffee"}, text("сахар"), "Russian stemming")
	assert.Equal(t, []string{"nested", "tea"}, text("drinking"))
	assert.Empty(t, text("the of и"), "stop words only: nothing to find")
	assert.Empty(t, text("zebra"))

	got := search(t, s, memory.Query{Prefix: ann, Text: "green tea"})
	require.Equal(t, []string{"tea", "nested"}, keys(got), "the best score first")
	assert.InDelta(t, 1, got[0].Score, 1e-9)
	assert.InDelta(t, 0.5, got[1].Score, 1e-9)

	assert.Equal(t, []string{"tea"}, keys(search(t, s, memory.Query{Prefix: ann, Text: "tea", Filter: map[string]any{"kind": "pref"}})), "text and filter")
	assert.Equal(t, []string{"tea", "nested", "tea"}, keys(search(t, s, memory.Query{Text: "drinks tea", Limit: 3})), "every namespace")
}
