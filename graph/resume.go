package graph

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/sgrgraph/sgrgraph/checkpoint"
)

// threadOptions are the run options about what a run on a thread starts
// from (runOptions embeds them).
type threadOptions struct {
	replacePending bool
	replaceState   bool
	resuming       bool // Resume or WithResume
	resumeValue    any
	asNode         string // UpdateState's AsNode
	hasAsNode      bool
	durability     Durability // WithDurability
}

// ReplacePending lets a new input start a run on a thread that is paused
// for input (an Interrupt or a breakpoint): the pause is dropped, and the
// checkpoint that held it stays in the history. Without it such an input
// is refused with a *PendingError, so that a question is never lost
// silently.
func ReplacePending() RunOption { return func(o *runOptions) { o.replacePending = true } }

// ReplaceState makes a run's input the thread's state as it is, instead of
// merging it into the latest state: for a caller that builds the whole
// next state itself, as the default agent does with each turn.
func ReplaceState() RunOption { return func(o *runOptions) { o.replaceState = true } }

// WithResume makes Invoke or Stream resume the thread (WithThread) as
// Resume does, with value answering the pending interrupts; the input must
// be the zero value. It is how a resumed run is streamed.
func WithResume(value any) RunOption {
	return func(o *runOptions) { o.resuming, o.resumeValue = true, value }
}

// ErrPending is matched (errors.Is) by the *PendingError of a new input
// given to a thread that waits for input.
var ErrPending = errors.New("the thread waits for input")

// PendingError refuses a new input on a thread paused for input: resume
// it (Resume, WithResume), or pass ReplacePending to drop the pause.
type PendingError struct {
	Thread     string
	Checkpoint string
	Interrupts []checkpoint.Interrupt // those waiting
}

func (e *PendingError) Error() string {
	var at []string
	for _, in := range e.Interrupts {
		at = append(at, fmt.Sprintf("%s (interrupt %s)", in.Node, in.ID))
	}
	return fmt.Sprintf("thread %q waits for input at %s (checkpoint %s): resume it, or pass graph.ReplacePending() to drop the pause and run the new input",
		e.Thread, strings.Join(at, ", "), e.Checkpoint)
}

// Is makes errors.Is(err, ErrPending) hold.
func (e *PendingError) Is(target error) bool { return target == ErrPending }

// threadStart works out what a run on a thread starts from:
//
//   - resuming (Resume, WithResume): the checkpoint's pending node(s),
//     with the answers given;
//   - the zero input on a checkpoint with work left (a pause, a cut run,
//     an UpdateState): that work, with no answer given;
//   - otherwise a new run from START on the latest state with the input
//     merged into it (ReplaceState: the input as it is), refused when the
//     thread waits for input unless ReplacePending.
func (r *Runnable[S]) threadStart(ctx context.Context, s S, o runOptions) (S, *threadRun[S], error) {
	var zero S
	if err := r.threaded(o.thread); err != nil {
		return zero, nil, err
	}
	if o.hasAsNode {
		return zero, nil, fmt.Errorf("graph %s: AsNode is an option of UpdateState", r.g.name)
	}
	if o.durability < DurabilitySync || o.durability > DurabilityExit {
		return zero, nil, fmt.Errorf("graph %s: WithDurability(%d): not DurabilitySync, DurabilityAsync or DurabilityExit", r.g.name, int(o.durability))
	}
	// The latest checkpoint's head tells what the run starts from; its
	// state is read only when the run needs it.
	var base checkpoint.Checkpoint
	var err error
	if o.from == "" {
		base, err = r.head(ctx, o.thread)
	} else {
		base, err = r.load(ctx, o.thread, o.from)
	}
	found := err == nil
	if err != nil && (o.from != "" || o.resuming || !errors.Is(err, checkpoint.ErrNotFound)) {
		return zero, nil, err
	}
	switch {
	case o.resuming:
		if !isZero(s) {
			return zero, nil, fmt.Errorf("graph %s: a resumed run takes its state from thread %q; give the zero input", r.g.name, o.thread)
		}
		if len(base.Next) == 0 {
			return zero, nil, fmt.Errorf("graph %s: thread %q checkpoint %s: the run ended; nothing to resume (Invoke starts a new one)", r.g.name, o.thread, base.ID)
		}
		if base, err = r.whole(ctx, base); err != nil {
			return zero, nil, err
		}
		return r.continueAt(base, o, true)
	case isZero(s) && found && len(base.Next) > 0:
		if base, err = r.whole(ctx, base); err != nil {
			return zero, nil, err
		}
		return r.continueAt(base, o, false)
	}
	if found && !o.replacePending {
		if w := waiting(withIDs(base.Interrupts)); len(w) > 0 {
			return zero, nil, fmt.Errorf("graph %s: %w", r.g.name, &PendingError{Thread: o.thread, Checkpoint: base.ID, Interrupts: w})
		}
	}
	if found && !o.replaceState {
		latest, _, err := r.stateOf(ctx, base)
		if err != nil {
			return zero, nil, err
		}
		if s, err = mergeInput(latest, s); err != nil {
			return zero, nil, fmt.Errorf("graph %s: thread %q: merge the input into the latest state: %w", r.g.name, o.thread, err)
		}
	}
	tr := r.newThreadRun(o.thread, base, o)
	tr.fresh = true
	return s, tr, nil
}

// continueAt sets up a run that goes on with the work a checkpoint left:
// the node in its Next (through the subgraphs on its path), or the
// parallel branches it paused in. answer says whether the run's resume
// value answers the pending interrupts.
func (r *Runnable[S]) continueAt(cp checkpoint.Checkpoint, o runOptions, answer bool) (S, *threadRun[S], error) {
	var zero S
	s, err := r.codec.Decode(cp)
	if err != nil {
		return zero, nil, fmt.Errorf("graph %s: %w", r.g.name, err)
	}
	ins := withIDs(slices.Clone(cp.Interrupts))
	if answer {
		values, err := answers(waiting(ins), o.resumeValue)
		if err != nil {
			return zero, nil, fmt.Errorf("graph %s: thread %q: %w", r.g.name, o.thread, err)
		}
		for i := range ins {
			if v, ok := values[ins[i].ID]; ok && ins[i].Value == nil {
				ins[i].Value = v
			}
		}
	}
	tr := r.newThreadRun(o.thread, cp, o)
	tr.input = heldData[S](cp.State)
	if len(cp.Branches) > 0 {
		w, err := r.branchWorkOf(cp, ins)
		if err != nil {
			return zero, nil, fmt.Errorf("graph %s: thread %q: %w", r.g.name, o.thread, err)
		}
		tr.branches = w
		if w.ns != "" {
			tr.resume = strings.Split(w.ns, "/")
		}
		return s, tr, nil
	}
	tr.resume = strings.Split(cp.Next[0], "/")
	for _, in := range ins {
		if in.Index >= 0 && in.Node == cp.Next[0] { // a breakpoint asks nothing
			tr.answered = append(tr.answered, in)
		}
	}
	return s, tr, nil
}

// answers are the resume values by interrupt ID: value itself for the one
// interrupt waiting, or the entries of a map[string]any keyed by the IDs of
// those waiting. A breakpoint asks nothing, so it takes no value.
func answers(pending []checkpoint.Interrupt, value any) (map[string]json.RawMessage, error) {
	var questions []checkpoint.Interrupt
	for _, in := range pending {
		if in.Index >= 0 {
			questions = append(questions, in)
		}
	}
	out := map[string]json.RawMessage{}
	if byID, ok := value.(map[string]any); ok && anyKeyIsID(byID, questions) {
		for id, v := range byID {
			if !slices.ContainsFunc(questions, func(in checkpoint.Interrupt) bool { return in.ID == id }) {
				return nil, fmt.Errorf("resume value for interrupt %s: no such interrupt waits (%s)", id, ids(questions))
			}
			data, err := json.Marshal(v)
			if err != nil {
				return nil, fmt.Errorf("resume value for interrupt %s: %w", id, err)
			}
			out[id] = data
		}
		return out, nil
	}
	switch len(questions) {
	case 0:
		return out, nil
	case 1:
		data, err := json.Marshal(value)
		if err != nil {
			return nil, fmt.Errorf("resume value: %w", err)
		}
		out[questions[0].ID] = data
		return out, nil
	}
	return nil, fmt.Errorf("%d interrupts wait (%s): answer each by its ID with a map[string]any", len(questions), ids(questions))
}

func anyKeyIsID(m map[string]any, ins []checkpoint.Interrupt) bool {
	for _, in := range ins {
		if _, ok := m[in.ID]; ok {
			return true
		}
	}
	return false
}

func ids(ins []checkpoint.Interrupt) string {
	var out []string
	for _, in := range ins {
		out = append(out, in.ID+" at "+in.Node)
	}
	return strings.Join(out, ", ")
}

// isZero says whether s is the zero input: nil for a pointer state, the
// zero value otherwise.
func isZero[S any](s S) bool { return reflect.ValueOf(&s).Elem().IsZero() }

// inputReducers caches the field reducers of each state type (reflect.Type
// → reducer[S] or error), worked out once.
var inputReducers sync.Map

// mergeInput lays an input (or an UpdateState's update) over a state as a
// node's output is laid over the state a parallel branch started from:
// each field by the reducer its `reduce` tag names (append adds the
// input's items, sum adds its number, ...), a nested struct field by
// field, and a field without a reducer takes the input's value unless that
// is the zero value (reflect.Value.IsZero: an empty but non-nil slice is
// set). Go cannot tell a field left out from one set to zero; to clear a
// field, use ReplaceState. A state that is not a struct is replaced by any
// input but the zero one. WithMerge does not apply: an input is not a
// branch that started from the state.
func mergeInput[S any](base, in S) (S, error) {
	if isZero(in) {
		return base, nil
	}
	if isZero(base) {
		return in, nil
	}
	t := reflect.TypeFor[S]()
	cached, ok := inputReducers.Load(t)
	if !ok {
		m, err := reduceMerge[S]()
		if err != nil {
			cached = err
		} else {
			cached = m
		}
		inputReducers.Store(t, cached)
	}
	m, ok := cached.(reducer[S])
	if !ok {
		return in, nil // not a struct: no fields to merge
	}
	var empty S // what the input is compared with: for a pointer state, a pointer to a zero struct
	if t.Kind() == reflect.Pointer {
		empty = reflect.New(t.Elem()).Interface().(S)
	}
	return m(base, []S{empty}, []S{in}, []string{"input"})
}
