package graph

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/sgrgraph/sgrgraph/tables"
)

// Router decides where a conditional edge goes. Make one with ByFunc (one
// key), ByKeys (several targets at once, run in parallel), BySend (one node
// several times, each with its own state) or ByTable (a decision the node
// recorded). The router also labels the edges in diagrams.
type Router[S any] interface {
	route(ctx context.Context, s S) (route[S], error)
	check(targets map[string]string) error
	label(key string) string
	fansOut() bool
}

// route is what a router chose: keys of targets, and the states Sent to
// them when the router sends.
type route[S any] struct {
	keys  []string
	sends []Send[S]
}

// Send runs the node of a key with a state of its own (LangGraph's Send):
// a BySend router returns several, and the node runs once per Send, in
// parallel, before the results are merged.
type Send[S any] struct {
	Key   string
	State S
}

type funcRouter[S any] struct {
	fn func(context.Context, S) (string, error)
}

// ByFunc routes by a function that returns one key of the targets.
func ByFunc[S any](fn func(ctx context.Context, s S) (string, error)) Router[S] {
	if fn == nil {
		return nil
	}
	return funcRouter[S]{fn}
}

func (r funcRouter[S]) route(ctx context.Context, s S) (route[S], error) {
	k, err := r.fn(ctx, s)
	return route[S]{keys: []string{k}}, err
}
func (funcRouter[S]) check(map[string]string) error { return nil }
func (funcRouter[S]) label(key string) string       { return key }
func (funcRouter[S]) fansOut() bool                 { return false }

type keysRouter[S any] struct {
	fn func(context.Context, S) ([]string, error)
}

// ByKeys routes by a function that returns several keys: their targets run
// in parallel, each on its own copy of the state.
func ByKeys[S any](fn func(ctx context.Context, s S) ([]string, error)) Router[S] {
	if fn == nil {
		return nil
	}
	return keysRouter[S]{fn}
}

func (r keysRouter[S]) route(ctx context.Context, s S) (route[S], error) {
	keys, err := r.fn(ctx, s)
	return route[S]{keys: keys}, err
}
func (keysRouter[S]) check(map[string]string) error { return nil }
func (keysRouter[S]) label(key string) string       { return key }
func (keysRouter[S]) fansOut() bool                 { return true }

type sendRouter[S any] struct {
	fn func(context.Context, S) ([]Send[S], error)
}

// BySend routes by a function that returns Sends: each runs its key's node
// once with its own state (map-reduce). The node's runs are merged into one
// state before the graph goes on from it. A single Send of the very state
// the router was given (the same pointer) is a plain step: no copy, no
// merge.
func BySend[S any](fn func(ctx context.Context, s S) ([]Send[S], error)) Router[S] {
	if fn == nil {
		return nil
	}
	return sendRouter[S]{fn}
}

func (r sendRouter[S]) route(ctx context.Context, s S) (route[S], error) {
	sends, err := r.fn(ctx, s)
	if err != nil {
		return route[S]{}, err
	}
	rt := route[S]{sends: sends}
	for _, sd := range sends {
		if !slices.Contains(rt.keys, sd.Key) {
			rt.keys = append(rt.keys, sd.Key)
		}
	}
	return rt, nil
}
func (sendRouter[S]) check(map[string]string) error { return nil }
func (sendRouter[S]) label(key string) string       { return "send " + key }
func (sendRouter[S]) fansOut() bool                 { return true }

// DecisionReader is a state that records the decisions its nodes made;
// embedding tables.Decisions makes a state one.
type DecisionReader interface {
	Decision(table string) (tables.Result, bool)
}

type tableRouter[S any] struct {
	t      *tables.Table
	output string
	rules  map[string][]int // output value → rules (1-based) producing it
}

// ByTable routes by the decision the source node recorded for table t: the
// value of its output column is the key. The table is not evaluated here;
// the node that owns the decision evaluated it once. Compile fails when the
// table can output a value that has no target, and a run fails when the
// node recorded no decision. Edges are labelled with the table's ID, the
// value and the rules that produce it.
func ByTable[S any](t *tables.Table, output string) Router[S] {
	r := &tableRouter[S]{t: t, output: output, rules: map[string][]int{}}
	if t == nil {
		return r
	}
	if col := slices.IndexFunc(t.Outputs, func(c tables.Column) bool { return c.Name == output }); col >= 0 {
		for i, rule := range t.Rules {
			r.rules[rule.Outputs[col]] = append(r.rules[rule.Outputs[col]], i+1)
		}
	}
	return r
}

func (r *tableRouter[S]) route(_ context.Context, s S) (route[S], error) {
	dr, ok := any(s).(DecisionReader)
	if !ok {
		return route[S]{}, fmt.Errorf("%s: state %T records no decisions (embed tables.Decisions)", r.t.ID, s)
	}
	d, ok := dr.Decision(r.t.ID)
	if !ok {
		return route[S]{}, fmt.Errorf("%s: no decision recorded", r.t.ID)
	}
	v, ok := d.Outputs[r.output]
	if !ok {
		return route[S]{}, fmt.Errorf("%s: the recorded decision (rule %d) has no output %q", r.t.ID, d.Rule, r.output)
	}
	return route[S]{keys: []string{v}}, nil
}
func (*tableRouter[S]) fansOut() bool { return false }

func (r *tableRouter[S]) check(targets map[string]string) error {
	if r.t == nil {
		return fmt.Errorf("nil table")
	}
	var zero S
	if _, ok := any(zero).(DecisionReader); !ok {
		return fmt.Errorf("%s: state %T records no decisions (embed tables.Decisions)", r.t.ID, zero)
	}
	if len(r.rules) == 0 {
		return fmt.Errorf("%s has no output %q", r.t.ID, r.output)
	}
	for _, v := range sortedKeys(r.rules) {
		if _, ok := targets[v]; !ok {
			return fmt.Errorf("%s can output %s=%q but no target is given for it", r.t.ID, r.output, v)
		}
	}
	return nil
}

func (r *tableRouter[S]) label(key string) string {
	rules := r.rules[key]
	words := make([]string, len(rules))
	for i, n := range rules {
		words[i] = strconv.Itoa(n)
	}
	noun := "rule"
	if len(rules) > 1 {
		noun = "rules"
	}
	return fmt.Sprintf("%s %s (%s %s)", r.t.ID, key, noun, strings.Join(words, ", "))
}
