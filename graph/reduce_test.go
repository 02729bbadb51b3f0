package graph

import (
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type inner struct {
	Hits int `reduce:"sum"`
	Note string
}

// merged is a test double of a state whose fields are merged in every way
// the reducer knows: a nested struct field by field, a struct with
// unexported fields (time.Time) as one value, slices of pointers appended.
type merged struct {
	At    time.Time
	In    inner
	Log   []*string `reduce:"append"`
	Extra map[string]int
}

func TestReduceFieldKinds(t *testing.T) {
	merge, err := reduceMerge[merged]()
	require.NoError(t, err)
	first, second := "first", "second"
	base := merged{In: inner{Hits: 1}, Log: []*string{&first}, Extra: map[string]int{"a": 1}}
	in := base
	in.Log = append([]*string(nil), base.Log...) // a branch's own copy, as Clone gives it
	out := in
	out.At = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	out.In = inner{Hits: 3, Note: "seen"}
	out.Log = append(out.Log, &second)
	got, err := merge(base, []merged{in}, []merged{out}, []string{"b"})
	require.NoError(t, err)
	assert.True(t, out.At.Equal(got.At), "a time.Time a branch set is kept, not walked as a struct without fields")
	assert.Equal(t, inner{Hits: 3, Note: "seen"}, got.In)
	assert.Equal(t, []*string{&first, &second}, got.Log)
	assert.Equal(t, map[string]int{"a": 1}, got.Extra)
}

func TestEqualAgreesWithDeepEqual(t *testing.T) {
	s1, s2 := "x", "x"
	shared := []int{1, 2}
	nan := []float64{0}
	for _, tc := range []struct {
		name string
		a, b any
	}{
		{"same ints", 1, 1},
		{"different strings", "a", "b"},
		{"nil and empty slice", []int(nil), []int{}},
		{"one backing array", shared, shared},
		{"equal copies", []int{1, 2}, []int{1, 2}},
		{"different lengths", []int{1}, []int{1, 2}},
		{"pointers to equal values", &s1, &s2},
		{"structs", inner{1, "a"}, inner{1, "a"}},
		{"structs that differ", inner{1, "a"}, inner{1, "b"}},
		{"times", time.Unix(5, 0), time.Unix(5, 0)},
		{"maps", map[string]int{"a": 1}, map[string]int{"a": 1}},
		{"maps that differ", map[string]int{"a": 1}, map[string]int{"a": 2}},
		{"interfaces", []any{1, "a"}, []any{1, "a"}},
		{"interfaces of other types", []any{1}, []any{int64(1)}},
		{"floats", nan, []float64{0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, reflect.DeepEqual(tc.a, tc.b), equal(reflect.ValueOf(tc.a), reflect.ValueOf(tc.b)))
		})
	}
}
