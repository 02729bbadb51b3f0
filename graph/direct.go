package graph

import (
	"context"
	"reflect"

	"github.com/cloudwego/eino/callbacks"
)

// A graph that fusion turns into one eino node (START → the group → END:
// a straight chain, fan-outs with their joins) gains nothing from eino's
// run but its callbacks, and a one-node eino run costs more than ten
// plain nodes. So such a run calls the group itself when no callback
// would see it: no WithCallbacks, no tracing and no eino global handler.
// The group already does what eino would (fuse.go): it counts the steps
// against the limit, stops where the context ended, recovers a node's
// panic, and its errors are named as eino names them.

// directRun is the group's function when the whole graph is one group
// that START enters and that ends at END, else nil.
func (r *Runnable[S]) directRun(f *fusion, fn func(context.Context, S) (S, error)) func(context.Context, S) (S, error) {
	if len(f.heads) != 1 || len(r.g.branches) > 0 || r.store != nil {
		return nil
	}
	head := f.heads[0]
	plan := f.group[head]
	last := plan[len(plan)-1].node
	if len(plan) < 2 || last == "" {
		return nil
	}
	for _, e := range r.g.edges {
		inside := e.from != START && e.to != END
		if !inside && !(e.from == START && e.to == head) && !(e.from == last && e.to == END) {
			return nil
		}
	}
	return func(ctx context.Context, s S) (S, error) {
		var zero S
		select {
		case <-ctx.Done(): // eino starts no step on an ended context
			return zero, &fusedFail{canceled: ctx.Err()}
		default:
		}
		if !r.oneTask { // what the pre-handler of the group's eino node does
			rs := runOf(ctx)
			rs.ran.Store(false)
			if err := rs.open(false); err != nil {
				return zero, err
			}
		}
		out, err := fn(ctx, s)
		if err != nil { // eino returns no state with an error
			return zero, err
		}
		return out, nil
	}
}

// globalCallbacks says whether eino has global callback handlers
// (callbacks.AppendGlobalHandlers), which would see a graph's run. eino
// does not tell; the context it makes for a run's callbacks holds a nil
// manager when there are none. When that cannot be read, it says yes.
func globalCallbacks() bool {
	ctx := callbacks.InitCallbacks(context.Background(), &callbacks.RunInfo{})
	v := reflect.ValueOf(ctx)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return true
	}
	val := v.Elem().FieldByName("val")
	if !val.IsValid() || val.Kind() != reflect.Interface {
		return true
	}
	m := val.Elem()
	return !m.IsValid() || m.Kind() != reflect.Pointer || !m.IsNil()
}
