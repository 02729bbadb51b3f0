package graph

import (
	"context"
	"errors"
	"fmt"

	"github.com/cloudwego/eino/callbacks"
	"github.com/cloudwego/eino/compose"
)

// Runnable is a compiled graph. It is safe for concurrent use: each run has
// its own state.
type Runnable[S any] struct {
	g          *StateGraph[S]
	plan       *plan
	eino       compose.Runnable[S, S]
	middleware []Middleware[S]
	defaults   nodeOptions
	merge      MergeFunc[S] // WithMerge, or nil
	reduce     reducer[S]   // the field reducers when there is no WithMerge
}

// RunOption tunes one run.
type RunOption func(*runOptions)

type runOptions struct {
	modes      []StreamMode
	callbacks  []callbacks.Handler
	stopBefore string
}

// StopBefore ends the run, without error, when it reaches the named node
// (in the graph or a subgraph), returning the state that node would have
// received. Tests use it to run a graph up to a node.
func StopBefore(node string) RunOption { return func(o *runOptions) { o.stopBefore = node } }

type stopKey struct{}

// WithCallbacks passes eino callback handlers to the run, so eino
// components inside nodes report to them.
func WithCallbacks(h ...callbacks.Handler) RunOption {
	return func(o *runOptions) { o.callbacks = append(o.callbacks, h...) }
}

// stopped carries the state out of a run that reached the StopBefore node.
type stopped[S any] struct{ s S }

func (stopped[S]) Error() string { return "stopped before node" }

// Invoke runs the graph on s and returns the state it ends with.
func (r *Runnable[S]) Invoke(ctx context.Context, s S, opts ...RunOption) (S, error) {
	var o runOptions
	for _, opt := range opts {
		opt(&o)
	}
	return r.invoke(ctx, s, o)
}

func (r *Runnable[S]) invoke(ctx context.Context, s S, o runOptions) (S, error) {
	if r.plan.parallel() {
		inv := newInvocation[S]()
		inv.setBase(START, s)
		ctx = context.WithValue(ctx, invKey{}, inv)
	}
	if o.stopBefore != "" {
		ctx = context.WithValue(ctx, stopKey{}, o.stopBefore)
	}
	var eo []compose.Option
	if len(o.callbacks) > 0 {
		eo = append(eo, compose.WithCallbacks(o.callbacks...))
	}
	out, err := r.eino.Invoke(ctx, s, eo...)
	var stop stopped[S]
	if errors.As(err, &stop) && o.stopBefore != "" {
		return stop.s, nil
	}
	if err != nil {
		return out, fmt.Errorf("graph %s: %w", r.g.name, err)
	}
	return out, nil
}

// Name is the graph's name.
func (r *Runnable[S]) Name() string { return r.g.name }

// lambda is the eino function of a node: the node, its middleware and
// policy, and the bookkeeping of parallel branches around it.
func (r *Runnable[S]) lambda(name string) func(context.Context, S) (S, error) {
	fn := r.g.nodes[name].fn
	for i := len(r.middleware) - 1; i >= 0; i-- {
		fn = r.middleware[i](name, fn)
	}
	opts := r.defaults
	for _, o := range r.g.nodes[name].opts.list() {
		o(&opts)
	}
	call := attempts(name, fn, opts)
	policy := opts.retry != nil || opts.timeout != 0
	p := r.plan
	clone, fork, join := p.clones[name], p.forks[name], p.joins[name] != nil
	sendFork, sends := p.sends[name]
	branch := p.inBranch[name]
	return func(ctx context.Context, s S) (S, error) {
		if stop, _ := ctx.Value(stopKey{}).(string); stop == name {
			return s, stopped[S]{s}
		}
		var inv *invocation[S]
		if p.parallel() {
			inv = invocationOf[S](ctx)
		}
		switch {
		case sends:
			if queued := inv.take(name); len(queued) > 0 {
				return r.fanOut(ctx, name, call, policy, inv.base(sendFork), queued)
			}
		case join:
			merged, ok, err := r.join(ctx, name, inv)
			if err != nil {
				var zero S
				return zero, err
			}
			if ok {
				s = merged
			}
		}
		if clone {
			s = any(s).(Cloner[S]).Clone()
		}
		out, err := observe(ctx, name, call, s, !branch, policy)
		if err == nil && fork {
			inv.setBase(name, out)
		}
		return out, err
	}
}

// list returns the options as setters, to lay them over the defaults.
func (o nodeOptions) list() []NodeOption {
	var l []NodeOption
	if o.retry != nil {
		l = append(l, WithRetry(*o.retry))
	}
	if o.timeout != 0 {
		l = append(l, WithTimeout(o.timeout))
	}
	return l
}
