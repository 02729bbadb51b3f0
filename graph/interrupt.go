package graph

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

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
// run with a thread (WithCheckpointer and WithThread). Nodes of parallel
// branches may ask too: the other branches finish, then the run pauses
// with one interrupt per asking branch, each with its own ID, and a resume
// runs only the branches that asked. Inside a Send's run it is not
// available: those runs are not checkpointed.
func Interrupt[T any](ctx context.Context, payload any) (T, error) {
	var zero T
	a, ok := ctx.Value(askKey{}).(*asking)
	if !ok {
		return zero, errors.New("graph.Interrupt: the node runs without a thread (compile WithCheckpointer, run WithThread) or in a Send's run")
	}
	a.mu.Lock()
	i := a.next
	a.next++
	a.mu.Unlock()
	if i < len(a.answered) && a.answered[i].Value != nil {
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
	// A question a resume left unanswered is asked again: what came before
	// it is what the node was answered.
	return zero, &interrupted{index: i, payload: data, answered: a.answered[:min(i, len(a.answered))]}
}

type askKey struct{}

// asking is a node run's questions: the answers it is resumed with, and
// how many it asked so far. The mutex is for a subgraph run as one task of
// a parallel branch, whose nodes share the branch node's questions.
type asking struct {
	answered []checkpoint.Interrupt
	mu       sync.Mutex
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
// an Interrupt or a breakpoint, or at one Interrupt in each of several
// parallel branches. The interrupts without a Value wait for an answer;
// the others were asked before in the same node run and answered.
type InterruptError struct {
	Thread     string
	Checkpoint string
	Interrupts []checkpoint.Interrupt
}

func (e *InterruptError) Error() string {
	var at []string
	for _, in := range e.Waiting() {
		at = append(at, fmt.Sprintf("%s (interrupt %s)", in.Node, in.ID))
	}
	return fmt.Sprintf("paused for input at %s (thread %q, checkpoint %s)", strings.Join(at, ", "), e.Thread, e.Checkpoint)
}

// Pending is the interrupt waiting for an answer; the first of them when
// several parallel branches wait.
func (e *InterruptError) Pending() checkpoint.Interrupt {
	if w := e.Waiting(); len(w) > 0 {
		return w[0]
	}
	return checkpoint.Interrupt{}
}

// Waiting are all the interrupts waiting for an answer: one per branch
// that asked. Resume answers them by ID with a map[string]any.
func (e *InterruptError) Waiting() []checkpoint.Interrupt { return waiting(e.Interrupts) }

func waiting(ins []checkpoint.Interrupt) []checkpoint.Interrupt {
	var out []checkpoint.Interrupt
	for _, in := range ins {
		if in.Value == nil {
			out = append(out, in)
		}
	}
	return out
}

// interruptID names a node's index-th question. It is made from the
// node's path and the index only, so that it stays the same when a resume
// answers another branch and this one is asked again; the interrupts
// pending at once are in different nodes, so their IDs differ.
func interruptID(node string, index int) string {
	sum := sha256.Sum256([]byte(node + "\x00" + strconv.Itoa(index)))
	return hex.EncodeToString(sum[:8])
}

// withIDs gives every interrupt its ID; a checkpoint written before
// interrupts had IDs gets the one they would have had.
func withIDs(ins []checkpoint.Interrupt) []checkpoint.Interrupt {
	for i := range ins {
		if ins[i].ID == "" {
			ins[i].ID = interruptID(ins[i].Node, ins[i].Index)
		}
	}
	return ins
}
