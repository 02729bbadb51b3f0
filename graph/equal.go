package graph

import "reflect"

// equal is reflect.DeepEqual over values already in hand. A merge compares
// every field of every branch with the state the branch started from, and
// most of them still share their memory with it: equal answers those by
// identity and compares the rest without boxing each value.
func equal(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.Float32, reflect.Float64:
		return a.Float() == b.Float()
	case reflect.String:
		return a.String() == b.String()
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		if a.Len() == 0 || a.UnsafePointer() == b.UnsafePointer() {
			return true
		}
		for i := range a.Len() {
			if !equal(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Struct:
		if !walkable(a) {
			break
		}
		for i := range a.NumField() {
			if !equal(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Pointer, reflect.Map:
		if a.UnsafePointer() == b.UnsafePointer() {
			return true
		}
	}
	return reflect.DeepEqual(a.Interface(), b.Interface())
}

// walkable says whether equal may compare a struct field by field: one
// with a field it cannot read whole is compared by reflect.DeepEqual.
func walkable(v reflect.Value) bool {
	for i := range v.NumField() {
		if !v.Field(i).CanInterface() {
			return false
		}
	}
	return true
}
