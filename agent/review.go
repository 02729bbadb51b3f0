package agent

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/graph"
	"github.com/sgrgraph/sgrgraph/outbound"
)

// reviewThread prefixes the thread a turn without one gets when drafts may
// be held for review: the turn must be resumable, and its thread goes once
// the turn is done.
const reviewThread = "review-"

// Paused says whether err is a turn held for a person's review, and gives
// the thread to resume and what the person is asked.
func Paused(err error) (thread string, r contracts.ReviewRequest, ok bool) {
	var p *graph.InterruptError
	if !errors.As(err, &p) {
		return "", r, false
	}
	if json.Unmarshal(p.Pending().Payload, &r) != nil {
		return "", r, false
	}
	return p.Thread, r, true
}

// Resume continues a turn held for review with the person's decision and
// returns its result, masked as Run's. It also continues a thread's turn
// that a crash or an error cut short (any answer will do then).
func (a *Agent) Resume(ctx context.Context, thread string, answer contracts.ReviewAnswer) (contracts.StructuredResult, error) {
	if a.store == nil {
		return contracts.StructuredResult{}, errors.New("resume: the agent keeps no threads (give agent.Options.Store)")
	}
	ctx = outbound.WithObserver(ctx, observeAttempt)
	s, err := a.graph.Turn.Resume(ctx, thread, answer, turnDurability)
	if err != nil {
		return contracts.StructuredResult{}, err
	}
	a.finished(ctx, thread)
	return Masked(a.Result(s), a.cfg.Output), nil
}

// finished tidies a thread after its turn: a review thread goes, a
// conversation's keeps what retention allows.
func (a *Agent) finished(ctx context.Context, thread string) {
	if strings.HasPrefix(thread, reviewThread) {
		_ = a.store.Delete(context.WithoutCancel(ctx), thread)
		return
	}
	a.retain(ctx, thread)
}

func newReviewThread() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return reviewThread + hex.EncodeToString(b)
}
