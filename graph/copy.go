package graph

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"
	"unsafe"
)

// StateCopy says how a compiled graph copies its state: every attempt of a
// retried node (or one with a timeout), every parallel branch and every
// Send starts on a copy of its own, so that what a failed attempt or
// another branch did cannot leak into it.
type StateCopy struct {
	// By is CopyByClone when the state has a Clone() S method, else
	// CopyByDeepCopy.
	By string
	// Shared names what a deep copy hands to the copy as it is instead of
	// copying it: funcs and channels, pointers to types that show no
	// exported field (a client, a logger, a *big.Int) and the unexported
	// fields of a struct, each as "Path (type)". A type met on the way that
	// has a Clone method of its own is copied by it and not listed. Empty
	// for CopyByClone: Clone is the state's own word on what it shares.
	Shared []string
}

// The ways a state is copied.
const (
	CopyByClone    = "Clone"     // the state's own Clone() S method
	CopyByDeepCopy = "deep copy" // the framework's copy, by reflection
)

func (c StateCopy) String() string {
	if len(c.Shared) == 0 {
		return c.By
	}
	return c.By + "; shared: " + strings.Join(c.Shared, ", ")
}

// StateCopy says how the runs of this graph copy their state (see
// StateCopy): by its Clone method, or by the framework's deep copy, and
// what that copy shares. A state without Clone needs no code to run in
// parallel or to be retried, as in LangGraph; check Shared once, or give
// the state a Clone method to decide for yourself (and to copy faster).
func (r *Runnable[S]) StateCopy() StateCopy {
	if _, ok := any(*new(S)).(Cloner[S]); ok {
		return StateCopy{By: CopyByClone}
	}
	return StateCopy{By: CopyByDeepCopy, Shared: sharedBy(reflect.TypeFor[S]())}
}

// copyState is the independent copy a retried attempt, a parallel branch
// or a Send starts on: the state's Clone when it has one (the default
// agent's *contracts.ChatState does, and keeps this path), else a deep
// copy.
func copyState[S any](s S) S {
	if c, ok := any(s).(Cloner[S]); ok {
		return c.Clone()
	}
	return deepCopy(s)
}

// deepCopy copies s by reflection, the way encoding/json would see it,
// without its losses: it keeps unexported fields, fields tagged `json:"-"`,
// the dynamic types in interfaces and the sharing between pointers (two
// fields that point to one value point to one copy, and cycles end).
// JSON, the checkpointers' codec, would drop the first three silently.
func deepCopy[S any](s S) S {
	t := reflect.TypeFor[S]()
	p := planFor(t)
	if t.Kind() == reflect.Pointer && handle(t) {
		// The state itself is never shared, even when nothing of it shows.
		p = &copyPlan{kind: copyPointer, elem: planFor(t.Elem())}
	}
	if p.kind == copyAssign {
		return s
	}
	var out S
	p.copyInto(reflect.ValueOf(&out).Elem(), reflect.ValueOf(&s).Elem(), &memo{})
	return out
}

type copyKind uint8

const (
	copyAssign    copyKind = iota // assignment is a copy: numbers, strings, funcs, channels, handles, structs of them
	copyClone                     // the type's own Clone method
	copyPointer                   // a new value pointed to
	copySlice                     // a new backing array
	copyArray                     // element by element
	copyMap                       // a new map
	copyStruct                    // assigned, then the fields that need more copied
	copyInterface                 // the dynamic value, by its own plan
)

// copyPlan is how deepCopy copies the values of one type, worked out once
// per type so a copy walks only the parts that need more than assignment.
type copyPlan struct {
	kind   copyKind
	elem   *copyPlan   // pointer, slice, array, map: their elements
	fields []int       // struct: the exported fields assignment does not copy
	plans  []*copyPlan // struct: their plans
	clone  int         // copyClone: the method's index
}

var plans sync.Map // reflect.Type → *copyPlan

func planFor(t reflect.Type) *copyPlan {
	if p, ok := plans.Load(t); ok {
		return p.(*copyPlan)
	}
	p := buildPlan(t, map[reflect.Type]*copyPlan{})
	plans.Store(t, p)
	return p
}

// buildPlan works out t's plan; building holds the plans under way, so a
// recursive type (a tree, a list) refers to its own plan.
func buildPlan(t reflect.Type, building map[reflect.Type]*copyPlan) *copyPlan {
	if p, ok := plans.Load(t); ok {
		return p.(*copyPlan)
	}
	if p, ok := building[t]; ok {
		return p
	}
	p := &copyPlan{}
	if assignable(t) {
		return p
	}
	building[t] = p
	if m, ok := cloneMethod(t); ok {
		p.kind, p.clone = copyClone, m
		return p
	}
	switch t.Kind() {
	case reflect.Pointer:
		p.kind, p.elem = copyPointer, buildPlan(t.Elem(), building)
	case reflect.Slice:
		p.kind, p.elem = copySlice, buildPlan(t.Elem(), building)
	case reflect.Array:
		p.kind, p.elem = copyArray, buildPlan(t.Elem(), building)
	case reflect.Map:
		p.kind, p.elem = copyMap, buildPlan(t.Elem(), building)
	case reflect.Interface:
		p.kind = copyInterface
	case reflect.Struct:
		p.kind = copyStruct
		for i := range t.NumField() {
			f := t.Field(i)
			if f.IsExported() && !assignable(f.Type) {
				p.fields = append(p.fields, i)
				p.plans = append(p.plans, buildPlan(f.Type, building))
			}
		}
	}
	return p
}

// assignable says whether assignment copies a value of t as far as the
// deep copy goes: it holds no slice, map or interface, and pointers only to
// handles. Unexported fields do not count: the copy assigns them, as a
// Clone written `c := *s` does.
func assignable(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Slice, reflect.Map, reflect.Interface:
		return false
	case reflect.Pointer:
		return handle(t)
	case reflect.Array:
		return assignable(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() && !assignable(f.Type) {
				return false
			}
		}
	}
	return true
}

// handle says whether a pointer type points to something the copy shares:
// a struct that shows no exported field is a client, a logger, a lock or a
// number of math/big, whose insides the copy cannot see and must not copy
// half of.
func handle(t reflect.Type) bool {
	e := t.Elem()
	if e.Kind() != reflect.Struct || e.NumField() == 0 {
		return false
	}
	for i := range e.NumField() {
		if e.Field(i).IsExported() {
			return false
		}
	}
	return true
}

// cloneMethod finds a method Clone() T on t, the type's own word on how it
// is copied.
func cloneMethod(t reflect.Type) (int, bool) {
	if t.Kind() == reflect.Interface {
		return 0, false
	}
	m, ok := t.MethodByName("Clone")
	if !ok || m.Type.NumIn() != 1 || m.Type.NumOut() != 1 || m.Type.Out(0) != t {
		return 0, false
	}
	return m.Index, true
}

// memo maps what a copy has met (pointers, maps, slices held in an
// interface) to their copies, so shared values stay shared and cycles end.
type memo map[memoKey]reflect.Value

type memoKey struct {
	p   unsafe.Pointer
	t   reflect.Type
	len int
}

func (m *memo) get(k memoKey) (reflect.Value, bool) {
	v, ok := (*m)[k]
	return v, ok
}

func (m *memo) put(k memoKey, v reflect.Value) {
	if *m == nil {
		*m = memo{}
	}
	(*m)[k] = v
}

// copyInto sets dst, settable and of src's type, to a copy of src.
func (p *copyPlan) copyInto(dst, src reflect.Value, m *memo) {
	switch p.kind {
	case copyAssign:
		dst.Set(src)
	case copyClone:
		if k := src.Kind(); (k == reflect.Pointer || k == reflect.Map || k == reflect.Slice) && src.IsNil() {
			dst.Set(src)
			return
		}
		dst.Set(src.Method(p.clone).Call(nil)[0])
	case copyPointer:
		if src.IsNil() {
			dst.Set(src)
			return
		}
		k := memoKey{p: src.UnsafePointer(), t: src.Type()}
		if c, ok := m.get(k); ok {
			dst.Set(c)
			return
		}
		c := reflect.New(src.Type().Elem())
		m.put(k, c)
		p.elem.copyInto(c.Elem(), src.Elem(), m)
		dst.Set(c)
	case copySlice:
		if src.IsNil() {
			dst.Set(src)
			return
		}
		c := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
		if p.elem.kind == copyAssign {
			reflect.Copy(c, src)
		} else {
			for i := range src.Len() {
				p.elem.copyInto(c.Index(i), src.Index(i), m)
			}
		}
		dst.Set(c)
	case copyArray:
		for i := range src.Len() {
			p.elem.copyInto(dst.Index(i), src.Index(i), m)
		}
	case copyMap:
		if src.IsNil() {
			dst.Set(src)
			return
		}
		k := memoKey{p: src.UnsafePointer(), t: src.Type()}
		if c, ok := m.get(k); ok {
			dst.Set(c)
			return
		}
		c := reflect.MakeMapWithSize(src.Type(), src.Len())
		m.put(k, c)
		var v reflect.Value
		if p.elem.kind != copyAssign {
			v = reflect.New(src.Type().Elem()).Elem()
		}
		for it := src.MapRange(); it.Next(); {
			if p.elem.kind == copyAssign {
				c.SetMapIndex(it.Key(), it.Value())
				continue
			}
			p.elem.copyInto(v, it.Value(), m)
			c.SetMapIndex(it.Key(), v)
		}
		dst.Set(c)
	case copyStruct:
		dst.Set(src) // the unexported fields, and the exported ones assignment copies
		for i, f := range p.fields {
			p.plans[i].copyInto(dst.Field(f), src.Field(f), m)
		}
	case copyInterface:
		if src.IsNil() {
			dst.Set(src)
			return
		}
		e := src.Elem()
		ep := planFor(e.Type())
		if ep.kind == copyAssign {
			dst.Set(src)
			return
		}
		var k memoKey
		if e.Kind() == reflect.Slice && e.Len() > 0 { // a slice that holds itself through an interface ends here
			k = memoKey{p: e.UnsafePointer(), t: e.Type(), len: e.Len()}
			if c, ok := m.get(k); ok {
				dst.Set(c)
				return
			}
		}
		c := reflect.New(e.Type()).Elem()
		if k.p != nil {
			m.put(k, c)
		}
		ep.copyInto(c, e, m)
		dst.Set(c)
	}
}

// sharedBy lists what a deep copy of t shares with the original (see
// StateCopy.Shared); what an interface field holds is known only at run
// time, and is copied by the same rules.
func sharedBy(t reflect.Type) []string {
	var out []string
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type, path string, top bool)
	walk = func(t reflect.Type, path string, top bool) {
		name := func() string {
			if path == "" {
				return t.String()
			}
			return fmt.Sprintf("%s (%s)", path, t)
		}
		if _, ok := cloneMethod(t); ok && !top || seen[t] {
			return
		}
		switch t.Kind() {
		case reflect.Func, reflect.Chan, reflect.UnsafePointer:
			out = append(out, name())
		case reflect.Pointer:
			if t == reflect.TypeFor[*time.Location]() {
				return // immutable
			}
			if handle(t) && !top {
				out = append(out, name())
				return
			}
			seen[t] = true
			defer delete(seen, t)
			walk(t.Elem(), path, top)
		case reflect.Slice, reflect.Array:
			walk(t.Elem(), path+"[]", false)
		case reflect.Map:
			walk(t.Elem(), path+"[]", false)
		case reflect.Struct:
			if t == reflect.TypeFor[time.Time]() {
				return // a value: its location is immutable
			}
			seen[t] = true
			defer delete(seen, t) // only a cycle stops the walk, not a second field of the type
			for i := range t.NumField() {
				f := t.Field(i)
				p := f.Name
				if path != "" {
					p = path + "." + f.Name
				}
				if !f.IsExported() {
					if !plainData(f.Type, map[reflect.Type]bool{}) {
						out = append(out, fmt.Sprintf("%s (%s)", p, f.Type))
					}
					continue
				}
				walk(f.Type, p, false)
			}
		}
	}
	walk(t, "", true)
	return out
}

// plainData says whether a value of t holds no reference to anything: an
// unexported field of such a type is copied whole by assignment.
func plainData(t reflect.Type, seen map[reflect.Type]bool) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface, reflect.Func, reflect.Chan, reflect.UnsafePointer:
		return false
	case reflect.Array:
		return plainData(t.Elem(), seen)
	case reflect.Struct:
		if t == reflect.TypeFor[time.Time]() || seen[t] {
			return true
		}
		seen[t] = true
		for i := range t.NumField() {
			if !plainData(t.Field(i).Type, seen) {
				return false
			}
		}
	}
	return true
}
