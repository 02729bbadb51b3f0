package agent

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/events"
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
		return contracts.StructuredResult{}, fmt.Errorf("resume: %w", ErrNoStore)
	}
	ctx = outbound.WithObserver(ctx, observeAttempt)
	s, err := a.graph.Turn.Resume(ctx, thread, answer, turnDurability)
	if err != nil {
		return contracts.StructuredResult{}, err
	}
	a.finished(ctx, thread)
	return a.Masking().Result(a.Result(s)), nil
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

// ErrNoReview is the error (tested with errors.Is) of ResumeReview when
// no review waits on the thread, or another one than named.
var ErrNoReview = errors.New("no such review waits")

// Reviewing says whether drafts may be held for a person
// (guardian.human_review).
func (a *Agent) Reviewing() bool { return len(a.cfg.Guardian.HumanReview) > 0 }

// MaxReviewNoteRunes bounds a reviewer's note.
const MaxReviewNoteRunes = 2000

// Review is a person's answer to a held draft (ResumeReview).
type Review struct {
	Thread string
	// InterruptID is the review answered: the one the thread waits for
	// (PendingReview), so that an answer never lands on a later draft.
	InterruptID string
	Answer      contracts.ReviewAnswer
	// Lock, when set, is the thread taken by the caller (LockThread).
	Lock *ThreadLock
	// Events, when set, receives the resumed turn's events as RunState's.
	Events events.Sink
}

// CheckAnswer says what is wrong with a review answer, naming the field.
func CheckAnswer(a contracts.ReviewAnswer) error {
	switch a.Decision {
	case contracts.ReviewApprove, contracts.ReviewReject:
	case contracts.ReviewEdit:
		if strings.TrimSpace(a.Text) == "" {
			return errors.New("text: an edit needs the text of the answer")
		}
	default:
		return fmt.Errorf("decision: %q is not approve, edit or reject", a.Decision)
	}
	if n := utf8.RuneCountInString(a.Text); n > MaxMessageRunes {
		return fmt.Errorf("text: %d characters, over the limit of %d", n, MaxMessageRunes)
	}
	if n := utf8.RuneCountInString(a.Note); n > MaxReviewNoteRunes {
		return fmt.Errorf("note: %d characters, over the limit of %d", n, MaxReviewNoteRunes)
	}
	return nil
}

// PendingReview is the review a thread waits for, masked; nil when none
// waits. It reads the thread's latest checkpoint's head first, and its
// state only when a review waits there.
func (a *Agent) PendingReview(ctx context.Context, thread string) (*PendingReview, error) {
	if a.store == nil {
		return nil, nil
	}
	heads, err := a.store.List(ctx, thread, checkpoint.ListOptions{Limit: 1, NoState: true})
	if err != nil || len(heads) == 0 || len(heads[0].Interrupts) == 0 {
		return nil, err
	}
	snaps, err := a.graph.Turn.History(ctx, thread, graph.Last(1))
	if err != nil || len(snaps) == 0 || len(snaps[0].Interrupts) == 0 {
		return nil, err
	}
	p := pendingOf(snaps[0], a.Masking())
	if p != nil {
		p.At = snaps[0].Metadata.Time
	}
	return p, nil
}

// ResumeReview continues a turn held for review with a person's answer,
// under the thread's lock, and returns its result, masked as Run's; the
// thread's record keeps the review (TurnRecord.Review). ErrNoReview when
// the thread waits for no review, or for another one.
func (a *Agent) ResumeReview(ctx context.Context, r Review) (res contracts.StructuredResult, err error) {
	if a.store == nil {
		return res, fmt.Errorf("resume: %w", ErrNoStore)
	}
	if err := CheckAnswer(r.Answer); err != nil {
		return res, err
	}
	t := Turn{Thread: r.Thread, Lock: r.Lock}
	ctx, release, err := a.hold(ctx, &t)
	if err != nil {
		return res, err
	}
	defer release()
	p, err := a.PendingReview(ctx, r.Thread)
	if err != nil {
		return res, err
	}
	if p == nil || (r.InterruptID != "" && p.InterruptID != r.InterruptID) {
		return res, fmt.Errorf("thread %q, interrupt %q: %w", r.Thread, r.InterruptID, ErrNoReview)
	}
	ctx = outbound.WithObserver(ctx, observeAttempt)
	opts := []graph.RunOption{graph.WithThread(r.Thread), graph.WithResume(r.Answer), turnDurability}
	var s State
	if r.Events == nil {
		s, err = a.graph.Turn.Invoke(ctx, nil, opts...)
	} else {
		s, err = a.streamResumed(ctx, r.Events, opts)
	}
	a.done(ctx, r.Thread, err)
	if err != nil {
		return res, err
	}
	return a.Masking().Result(a.Result(s)), nil
}

// streamResumed runs a resumed turn as a stream, its events shown as
// RunState shows them: masked, no draft before a person has passed it.
func (a *Agent) streamResumed(ctx context.Context, sink events.Sink, opts []graph.RunOption) (State, error) {
	show, flush := shown(sink, a.Masking())
	held := events.HoldDrafts(show, "")
	defer flush()
	opts = append(opts, graph.WithStreamModes(graph.StreamCustom, graph.StreamMessages), graph.WithCallbacks(events.TokenCallbacks()))
	var end State
	for c, err := range a.graph.Turn.Stream(ctx, nil, opts...) {
		if err != nil {
			return nil, err
		}
		switch c.Mode {
		case graph.StreamCustom, graph.StreamMessages:
			if ev, ok := eventOf(c); ok {
				held(ev)
			}
		case graph.StreamEnd:
			end = c.State
		}
	}
	return end, nil
}
