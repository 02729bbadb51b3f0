package graph

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/sgrgraph/sgrgraph/checkpoint"
)

// Interrupt pauses the run to ask for outside input (a person's approval,
// an edited draft). The first time, it returns an error the node must
// return as it is: the run stops, is checkpointed, and Invoke returns an
// *InterruptError holding payload. Resume(ctx, thread, value) runs the node
// again from its start, and this call then returns value.
//
// Because the node runs again from its start, what it does before Interrupt
// runs twice: keep it free of side effects, or make them idempotent. A node
// may ask several times; each call is answered in order. Interrupt needs a
// run with a thread (WithCheckpointer and WithThread) and is not available
// inside parallel branches.
func Interrupt[T any](ctx context.Context, payload any) (T, error) {
	var zero T
	a, ok := ctx.Value(askKey{}).(*asking)
	if !ok {
		return zero, errors.New("graph.Interrupt: the node runs without a thread (compile WithCheckpointer, run WithThread) or in a parallel branch")
	}
	i := a.next
	a.next++
	if i < len(a.answered) {
		var v T
		if err := json.Unmarshal(a.answered[i].Value, &v); err != nil {
			return zero, fmt.Errorf("graph.Interrupt %d: the resume value does not fit %T: %w", i, v, err)
		}
		return v, nil
	}
	data, err := json.Marshal(payload)
	if err != nil {
		return zero, fmt.Errorf("graph.Interrupt %d: payload: %w", i, err)
	}
	return zero, &interrupted{index: i, payload: data, answered: a.answered}
}

type askKey struct{}

// asking is a node run's questions: the answers it is resumed with, and
// how many it asked so far.
type asking struct {
	answered []checkpoint.Interrupt
	next     int
}

// interrupted is the error Interrupt returns until the run has saved it.
type interrupted struct {
	index    int
	payload  json.RawMessage
	answered []checkpoint.Interrupt
	saved    *InterruptError
}

func (e *interrupted) Error() string {
	if e.saved != nil {
		return e.saved.Error()
	}
	return fmt.Sprintf("interrupt %d (the run has not saved it yet)", e.index)
}

// IsInterrupt says whether err is a node's pause for input (Interrupt)
// rather than a failure: middleware that logs failures leaves it alone.
func IsInterrupt(err error) bool {
	var asked *interrupted
	var paused *InterruptError
	return errors.As(err, &asked) || errors.As(err, &paused)
}

// InterruptError is what Invoke and Resume return when the run paused: at
// an Interrupt or a breakpoint. The last interrupt is the one waiting; the
// ones before it in the same node were answered.
type InterruptError struct {
	Thread     string
	Checkpoint string
	Interrupts []checkpoint.Interrupt
}

func (e *InterruptError) Error() string {
	var at []string
	for _, in := range e.Interrupts {
		if in.Value == nil {
			at = append(at, in.Node)
		}
	}
	return fmt.Sprintf("paused for input at %s (thread %q, checkpoint %s)", strings.Join(at, ", "), e.Thread, e.Checkpoint)
}

// Pending is the interrupt waiting for an answer.
func (e *InterruptError) Pending() checkpoint.Interrupt {
	for _, in := range e.Interrupts {
		if in.Value == nil {
			return in
		}
	}
	return checkpoint.Interrupt{}
}
