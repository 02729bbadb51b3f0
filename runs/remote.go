package runs

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/contracts"
)

// Remote runs turns on the queue's workers and waits for their results; it
// is a Handler, for code written against one (the batch command).
//
// A turn's run id is Namespace and a digest of the turn, so submitting the
// same turn again, after a restart, finds the first run rather than
// queueing another: a turn a worker finished is not run twice. Give each
// body of work its own Namespace.
type Remote struct {
	Queue     *Queue
	Owner     string
	Namespace string
}

// Run submits t, or finds its run, and returns its result.
func (r Remote) Run(ctx context.Context, t agent.Turn) (contracts.StructuredResult, error) {
	id, err := r.ID(t)
	if err != nil {
		return contracts.StructuredResult{}, err
	}
	if err := r.submit(ctx, id, SpecOf(t)); err != nil {
		return contracts.StructuredResult{}, err
	}
	run, err := r.Queue.Wait(ctx, r.Owner, id)
	switch {
	case err != nil:
		return contracts.StructuredResult{}, err
	case run.Status == Failed:
		return contracts.StructuredResult{}, errors.New(run.Error) // the turn's own words, as a local run gives them
	case run.Status == Interrupted && run.Interrupt != nil:
		return contracts.StructuredResult{}, fmt.Errorf("run %s: the answer waits for a person's review (guardian.human_review) on thread %s, interrupt %s",
			id, run.Interrupt.Thread, run.Interrupt.InterruptID)
	case run.Result == nil:
		return contracts.StructuredResult{}, fmt.Errorf("run %s: finished without a result", id)
	}
	return *run.Result, nil
}

// submit queues the run, trying again after a failure of Redis (Submit
// of one id queues it once), up to maxFailures times in a row.
func (r Remote) submit(ctx context.Context, id string, spec Spec) error {
	for failures := 1; ; failures++ {
		_, err := r.Queue.Submit(ctx, r.Owner, id, spec)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, ErrTaken), ctx.Err() != nil:
			return err
		case failures >= maxFailures:
			return fmt.Errorf("runs: queueing run %s failed %d times in a row (the last: %w)", id, failures, err)
		}
		sleep(ctx, backoff(failures))
	}
}

// ID is the run id of t: the Namespace, then the SHA-256 of the turn.
func (r Remote) ID(t agent.Turn) (string, error) {
	if r.Namespace == "" {
		return "", errors.New("runs: remote: a Namespace is required")
	}
	spec, err := json.Marshal(SpecOf(t))
	if err != nil {
		return "", fmt.Errorf("runs: remote: %w", err)
	}
	sum := sha256.Sum256(spec)
	id := r.Namespace + ":" + hex.EncodeToString(sum[:16])
	return id, CheckID(id)
}
