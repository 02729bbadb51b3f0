package contracts

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCloneCopiesEveryList gives every list of a state an element, clones
// it, and checks that no list of the clone shares its array with the
// original: a list Clone forgets shows up here as soon as it is added to
// ChatState, before two branches overwrite each other's appends.
func TestCloneCopiesEveryList(t *testing.T) {
	s := &ChatState{}
	grow(reflect.ValueOf(s).Elem())
	c := s.Clone()
	assert.Equal(t, s, c)
	shared := sharedLists(reflect.ValueOf(s).Elem(), reflect.ValueOf(c).Elem(), "")
	assert.Empty(t, shared, "lists the clone shares with the original")
	assert.NotEmpty(t, s.Made, "the embedded decisions are lists too")
}

// grow appends a zero element to every slice reachable through structs.
func grow(v reflect.Value) {
	for i := range v.NumField() {
		switch f := v.Field(i); f.Kind() {
		case reflect.Slice:
			f.Set(reflect.Append(f, reflect.Zero(f.Type().Elem())))
		case reflect.Struct:
			grow(f)
		}
	}
}

func sharedLists(a, b reflect.Value, prefix string) []string {
	var shared []string
	for i := range a.NumField() {
		name := prefix + a.Type().Field(i).Name
		switch fa, fb := a.Field(i), b.Field(i); fa.Kind() {
		case reflect.Slice:
			if fa.Pointer() == fb.Pointer() {
				shared = append(shared, name)
			}
		case reflect.Struct:
			shared = append(shared, sharedLists(fa, fb, name+".")...)
		}
	}
	return shared
}
