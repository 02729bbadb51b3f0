package graph

import (
	"cmp"
	"fmt"
	"reflect"
	"strings"
)

// reducer merges parallel branches: base is the state they started from,
// ins what each branch was given, outs what each returned, names who ran
// them (for errors).
type reducer[S any] func(base S, ins, outs []S, names []string) (S, error)

// The reducers a `reduce` struct tag may name, as LangGraph's Annotated
// reducers do. A field without a tag may be changed by one branch, or by
// several to the same value; a nested struct without a tag is merged field
// by field.
const (
	ReduceAppend = "append" // slices: each branch's new elements, in branch order
	ReduceUnion  = "union"  // slices and maps: every element or key once
	ReduceSum    = "sum"    // numbers: the base plus each branch's change
	ReduceMax    = "max"    // numbers and strings: the largest value
	ReduceMin    = "min"    // numbers and strings: the smallest value
	ReduceLast   = "last"   // any: the last branch that changed it wins
)

// InvalidUpdateError is LangGraph's rule for parallel writes: branches that
// wrote different values to a field without a reducer.
type InvalidUpdateError struct {
	Field    string
	Branches []string
}

func (e *InvalidUpdateError) Error() string {
	return fmt.Sprintf("field %s: branches %s wrote different values and the field has no reducer (tag it, e.g. `reduce:\"last\"`)",
		e.Field, strings.Join(e.Branches, ", "))
}

// reduceMerge builds the field-reducer merge of a struct state (or pointer
// to one), checking every tag against its field's type.
func reduceMerge[S any]() (reducer[S], error) {
	t := reflect.TypeFor[S]()
	ptr := t.Kind() == reflect.Pointer
	st := t
	if ptr {
		st = t.Elem()
	}
	if st.Kind() != reflect.Struct {
		return nil, fmt.Errorf("state type %s is not a struct, so it has no field reducers", t)
	}
	fields, err := fieldsOf(st, "")
	if err != nil {
		return nil, err
	}
	return func(base S, ins, outs []S, names []string) (S, error) {
		var zero S
		val := func(s S) (reflect.Value, error) {
			if ptr { // a pointer boxes without a copy
				v := reflect.ValueOf(any(s))
				if v.IsNil() {
					return v, fmt.Errorf("a branch holds a nil %s", t)
				}
				return v.Elem(), nil
			}
			return addressable(s), nil
		}
		b, err := val(base)
		if err != nil {
			return zero, err
		}
		in, out := make([]reflect.Value, len(ins)), make([]reflect.Value, len(outs))
		for i := range ins {
			if in[i], err = val(ins[i]); err != nil {
				return zero, err
			}
			if out[i], err = val(outs[i]); err != nil {
				return zero, err
			}
		}
		res := reflect.New(st).Elem()
		res.Set(b)
		shared := ptr // a join's branches all started from base itself
		for i := range in {
			shared = shared && in[i].UnsafeAddr() == b.UnsafeAddr()
		}
		if err := mergeStruct(fields, res, b, in, out, names, shared); err != nil {
			return zero, err
		}
		if ptr {
			return res.Addr().Interface().(S), nil
		}
		return res.Interface().(S), nil
	}, nil
}

// addressable is a state that is no pointer as a value whose fields can
// be read and set. Apart from val, so that only such a state is moved to
// the heap: a pointer state is boxed without a copy.
func addressable[S any](s S) reflect.Value { return reflect.ValueOf(&s).Elem() }

// field is how the merge treats one exported field of a struct state,
// worked out once at Compile: its reducer, or the fields of a nested struct
// merged one by one.
type field struct {
	index  int
	name   string // the path an error names, e.g. Diagnostics.Tokens.Prompt
	tag    string
	nested []field
}

// fieldsOf checks every reduce tag against its field's type and returns
// the fields the merge walks.
func fieldsOf(st reflect.Type, prefix string) ([]field, error) {
	var fs []field
	for i := range st.NumField() {
		f := st.Field(i)
		if !f.IsExported() {
			continue
		}
		name, k := prefix+f.Name, f.Type.Kind()
		fd := field{index: i, name: name, tag: f.Tag.Get("reduce")}
		ok := true
		switch fd.tag {
		case "":
			if k == reflect.Struct && allExported(f.Type) { // time.Time and the like are values
				nested, err := fieldsOf(f.Type, name+".")
				if err != nil {
					return nil, err
				}
				fd.nested = nested
				if fd.nested == nil {
					fd.nested = []field{}
				}
			}
		case ReduceAppend:
			ok = k == reflect.Slice
		case ReduceUnion:
			ok = k == reflect.Slice || k == reflect.Map
		case ReduceSum:
			ok = isNumber(k)
		case ReduceMax, ReduceMin:
			ok = isNumber(k) || k == reflect.String
		case ReduceLast:
		default:
			return nil, fmt.Errorf("field %s: unknown reducer %q (append, union, sum, max, min, last)", name, fd.tag)
		}
		if !ok {
			return nil, fmt.Errorf("field %s: reducer %q does not apply to %s", name, fd.tag, f.Type)
		}
		fs = append(fs, fd)
	}
	return fs, nil
}

func allExported(t reflect.Type) bool {
	for i := range t.NumField() {
		if !t.Field(i).IsExported() {
			return false
		}
	}
	return true
}

func isNumber(k reflect.Kind) bool {
	return k >= reflect.Int && k <= reflect.Float64
}

// mergeStruct writes into res (a copy of base) what the branches changed.
// shared says every branch was given base itself: a field of base is then
// read once, not once a branch.
func mergeStruct(fields []field, res, base reflect.Value, ins, outs []reflect.Value, names []string, shared bool) error {
	scratch := make([]reflect.Value, len(ins)+len(outs)) // a field's values, reused field by field
	for _, f := range fields {
		in, out := scratch[:len(ins)], scratch[len(ins):]
		bf := base.Field(f.index)
		for j := range ins {
			if shared {
				in[j] = bf
			} else {
				in[j] = ins[j].Field(f.index)
			}
			out[j] = outs[j].Field(f.index)
		}
		if f.nested != nil {
			if err := mergeStruct(f.nested, res.Field(f.index), bf, in, out, names, shared); err != nil {
				return err
			}
			continue
		}
		v, err := reduceField(f.tag, f.name, bf, in, out, names)
		if err != nil {
			return err
		}
		res.Field(f.index).Set(v)
	}
	return nil
}

// reduceField is one field's merged value.
func reduceField(tag, name string, base reflect.Value, ins, outs []reflect.Value, names []string) (reflect.Value, error) {
	var buf [16]int
	changed := buf[:0]
	for j := range outs {
		if !equal(outs[j], ins[j]) {
			changed = append(changed, j)
		}
	}
	if len(changed) == 0 {
		return base, nil
	}
	switch tag {
	case ReduceLast:
		return outs[changed[len(changed)-1]], nil
	case ReduceAppend:
		return appendNew(name, base, ins, outs, names)
	case ReduceUnion:
		return union(name, base, outs, names)
	case ReduceSum:
		return sum(base, ins, outs), nil
	case ReduceMax, ReduceMin:
		return extreme(tag == ReduceMax, base, outs), nil
	}
	first := outs[changed[0]]
	for _, j := range changed[1:] {
		if !equal(outs[j], first) {
			who := make([]string, len(changed))
			for n, c := range changed {
				who[n] = names[c]
			}
			return base, &InvalidUpdateError{Field: name, Branches: who}
		}
	}
	return first, nil
}

func appendNew(name string, base reflect.Value, ins, outs []reflect.Value, names []string) (reflect.Value, error) {
	if len(outs) == 1 && ins[0].Len() == base.Len() && hasPrefix(outs[0], ins[0]) && hasPrefix(outs[0], base) {
		return outs[0], nil // one branch that only appended to what it was given: its slice is the result
	}
	n := base.Len()
	for j := range outs {
		if !hasPrefix(outs[j], ins[j]) {
			return base, fmt.Errorf("field %s: branch %s changed earlier elements, and the reducer %q only adds new ones",
				name, names[j], ReduceAppend)
		}
		n += outs[j].Len() - ins[j].Len()
	}
	// Made at its length and filled by index: a Slice of each branch's
	// tail would allocate a header per branch.
	res := reflect.MakeSlice(base.Type(), n, n)
	at := reflect.Copy(res, base)
	for j := range outs {
		for k := ins[j].Len(); k < outs[j].Len(); k++ {
			res.Index(at).Set(outs[j].Index(k))
			at++
		}
	}
	return res, nil
}

func hasPrefix(s, prefix reflect.Value) bool {
	if s.Len() < prefix.Len() {
		return false
	}
	if prefix.Len() == 0 || s.UnsafePointer() == prefix.UnsafePointer() {
		return true // the branch appended to the slice it was given
	}
	for i := range prefix.Len() {
		if !equal(s.Index(i), prefix.Index(i)) {
			return false
		}
	}
	return true
}

func union(name string, base reflect.Value, outs []reflect.Value, names []string) (reflect.Value, error) {
	if base.Kind() == reflect.Map {
		res := reflect.MakeMap(base.Type())
		from := map[any]string{}
		for j, m := range append([]reflect.Value{base}, outs...) {
			who := "the base"
			if j > 0 {
				who = names[j-1]
			}
			for it := m.MapRange(); it.Next(); {
				k, v := it.Key(), it.Value()
				if old := res.MapIndex(k); old.IsValid() && !equal(old, v) && j > 0 && from[k.Interface()] != "the base" {
					return base, &InvalidUpdateError{Field: fmt.Sprintf("%s[%v]", name, k), Branches: []string{from[k.Interface()], who}}
				}
				res.SetMapIndex(k, v)
				from[k.Interface()] = who
			}
		}
		return res, nil
	}
	res := reflect.MakeSlice(base.Type(), 0, base.Len())
	for _, s := range append([]reflect.Value{base}, outs...) {
		for i := range s.Len() {
			e := s.Index(i)
			dup := false
			for k := range res.Len() {
				if equal(res.Index(k), e) {
					dup = true
					break
				}
			}
			if !dup {
				res = reflect.Append(res, e)
			}
		}
	}
	return res, nil
}

func sum(base reflect.Value, ins, outs []reflect.Value) reflect.Value {
	res := reflect.New(base.Type()).Elem()
	switch {
	case base.CanInt():
		total := base.Int()
		for j := range outs {
			total += outs[j].Int() - ins[j].Int()
		}
		res.SetInt(total)
	case base.CanUint():
		total := base.Uint()
		for j := range outs {
			total += outs[j].Uint() - ins[j].Uint()
		}
		res.SetUint(total)
	default:
		total := base.Float()
		for j := range outs {
			total += outs[j].Float() - ins[j].Float()
		}
		res.SetFloat(total)
	}
	return res
}

func extreme(largest bool, base reflect.Value, outs []reflect.Value) reflect.Value {
	best := base
	for _, v := range outs {
		c := compareValues(v, best)
		if largest && c > 0 || !largest && c < 0 {
			best = v
		}
	}
	return best
}

func compareValues(a, b reflect.Value) int {
	switch {
	case a.CanInt():
		return cmp.Compare(a.Int(), b.Int())
	case a.CanUint():
		return cmp.Compare(a.Uint(), b.Uint())
	case a.CanFloat():
		return cmp.Compare(a.Float(), b.Float())
	}
	return cmp.Compare(a.String(), b.String())
}
