package studio

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/sgrgraph/sgrgraph/tables"
)

// field is a top-level field of the state as its JSON names it, with the
// reducer an update of it goes through (its `reduce` tag; "" replaces).
type field struct {
	Name   string `json:"name"`
	Reduce string `json:"reduce,omitempty"`
	Type   string `json:"type"`
}

// fieldsOf lists the JSON fields of S (a struct or a pointer to one), the
// fields of embedded structs among them, as encoding/json does.
func fieldsOf[S any]() ([]field, error) {
	t := reflect.TypeFor[S]()
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("the state is a %s, not a struct: the studio edits a state field by field", t)
	}
	var out []field
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for i := range t.NumField() {
			sf := t.Field(i)
			tag := sf.Tag.Get("json")
			name, _, _ := strings.Cut(tag, ",")
			if !sf.IsExported() || name == "-" {
				continue
			}
			if sf.Anonymous && name == "" {
				et := sf.Type
				if et.Kind() == reflect.Pointer {
					et = et.Elem()
				}
				if et.Kind() == reflect.Struct {
					walk(et)
					continue
				}
			}
			out = append(out, field{Name: cmpOr(name, sf.Name), Reduce: sf.Tag.Get("reduce"), Type: sf.Type.String()})
		}
	}
	walk(t)
	return out, nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// decodeStrict decodes data into a new S: a pointer state gets a struct of
// its own, and a name that is no field of the state is an error.
func decodeStrict[S any](data []byte) (S, error) {
	var s S
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	t := reflect.TypeFor[S]()
	if t.Kind() == reflect.Pointer {
		v := reflect.New(t.Elem())
		if err := dec.Decode(v.Interface()); err != nil {
			return s, err
		}
		return v.Interface().(S), nil
	}
	err := dec.Decode(&s)
	return s, err
}

// fieldsJSON is a state's top-level fields, by their JSON names.
func fieldsJSON(state any) (map[string]json.RawMessage, error) {
	data, err := json.Marshal(state)
	if err != nil {
		return nil, err
	}
	out := map[string]json.RawMessage{}
	if string(data) == "null" {
		return out, nil
	}
	return out, json.Unmarshal(data, &out)
}

// change is one field a checkpoint's state has other than the state before
// it: Before is absent for a field that was not there.
type change struct {
	Field  string          `json:"field"`
	Before json.RawMessage `json:"before,omitempty"`
	After  json.RawMessage `json:"after,omitempty"`
}

// diff lists the fields whose JSON differs between before and after, in
// the order of names (the state's fields), then any other.
func diff(before, after map[string]json.RawMessage, names []string) []change {
	seen := map[string]bool{}
	var out []change
	add := func(name string) {
		if seen[name] {
			return
		}
		seen[name] = true
		b, a := before[name], after[name]
		if !sameJSON(b, a) {
			out = append(out, change{Field: name, Before: b, After: a})
		}
	}
	for _, n := range names {
		add(n)
	}
	rest := make([]string, 0)
	for n := range after {
		rest = append(rest, n)
	}
	for n := range before {
		rest = append(rest, n)
	}
	slices.Sort(rest)
	for _, n := range rest {
		add(n)
	}
	return out
}

func sameJSON(a, b json.RawMessage) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	var ca, cb bytes.Buffer
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
		return bytes.Equal(a, b)
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
}

// recorder is a state that records the decision-table rows that fired
// (tables.Decisions embedded, as the default turn's state does).
type recorder interface{ Recorded() []tables.Result }

// fired are the decisions after recorded beyond those before it: the rows
// that fired in the step between. A state whose list is not an extension
// of the one before (a new turn replaced it) fired all of its own.
func fired(before, after any) []tables.Result {
	ra, ok := after.(recorder)
	if !ok || isNil(after) {
		return nil
	}
	now := ra.Recorded()
	var was []tables.Result
	if rb, ok := before.(recorder); ok && !isNil(before) {
		was = rb.Recorded()
	}
	if len(was) <= len(now) {
		prefix := true
		for i := range was {
			if was[i].Table != now[i].Table || was[i].Rule != now[i].Rule {
				prefix = false
				break
			}
		}
		if prefix {
			return slices.Clone(now[len(was):])
		}
	}
	return slices.Clone(now)
}

func isNil(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}

// isZero says whether s is the zero state: nil for a pointer state, or a
// pointer to the zero struct; the zero value otherwise.
func isZero[S any](s S) bool {
	v := reflect.ValueOf(&s).Elem()
	if v.Kind() == reflect.Pointer {
		return v.IsNil() || v.Elem().IsZero()
	}
	return v.IsZero()
}
