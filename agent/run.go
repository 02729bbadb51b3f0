package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/rs/zerolog"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/events"
	"github.com/sgrgraph/sgrgraph/graph"
	"github.com/sgrgraph/sgrgraph/models"
	"github.com/sgrgraph/sgrgraph/nodes"
	"github.com/sgrgraph/sgrgraph/outbound"
)

// RunState runs one turn and returns its whole state, as the nodes left
// it: unmasked, for tests and for code that works on the state. What is
// shown to people comes from Run, Stream and the events.
//
// With t.Events set the turn runs as a stream of the graph (the custom and
// messages modes carry its events) and t.Events receives what a reader may
// see: personal data masked, and no draft answer before the Guardian has
// passed it (events.HoldDrafts).
func (a *Agent) RunState(ctx context.Context, t Turn) (s *contracts.ChatState, err error) {
	if t.Thread == "" && len(a.cfg.Guardian.HumanReview) > 0 {
		t.Thread = newReviewThread() // a draft held for review must be resumable
	}
	ctx, span := a.tracing.startTurn(ctx, t)
	defer func() { a.tracing.endTurn(span, s, err) }()
	ctx, opts, release, err := a.continued(ctx, &t)
	if err != nil {
		return nil, err
	}
	defer release() // once the turn's last checkpoint is written and done has tidied the thread
	t.History = Carry(t.History, a.cfg.Agent.HistoryTokens)
	s, err = NewState(t)
	if err != nil {
		return nil, err
	}
	ctx = outbound.WithObserver(ctx, observeAttempt) // each node's retries reach its diagnostics
	opts = a.withMemory(t, opts)
	if t.Events == nil {
		s, err := a.graph.Turn.Invoke(ctx, s, opts...)
		a.done(ctx, t.Thread, err)
		return s, err
	}
	answerNode := nodes.AgentModelName
	if len(a.cfg.Guardian.HumanReview) > 0 {
		answerNode = "" // a passed draft may still go to a person: no token is shown, the answer comes whole
	}
	show, flush := shown(t.Events, a.Masking())
	held := events.HoldDrafts(show, answerNode)
	defer flush()
	var end *contracts.ChatState
	opts = append(opts, graph.WithStreamModes(graph.StreamCustom, graph.StreamMessages), graph.WithCallbacks(events.TokenCallbacks()))
	for c, err := range a.graph.Turn.Stream(ctx, s, opts...) {
		if err != nil {
			a.done(ctx, t.Thread, err)
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
	a.done(ctx, t.Thread, nil)
	return end, nil
}

// done tidies a thread after a turn, unless the turn waits for a person.
func (a *Agent) done(ctx context.Context, thread string, err error) {
	if _, _, paused := Paused(err); thread == "" || paused {
		return
	}
	a.finished(ctx, thread)
}

// continued reads a thread's turn from the thread: its history and number
// from the thread's last state, and the option that checkpoints the turn
// there. The thread is held (hold) from before its last turn is read until
// release: two turns at once would build on the same last turn and write
// over each other. ctx ends if the hold is lost.
func (a *Agent) continued(ctx context.Context, t *Turn) (_ context.Context, _ []graph.RunOption, release func(), _ error) {
	if t.Thread == "" {
		return ctx, nil, func() {}, nil
	}
	if a.store == nil {
		return ctx, nil, nil, fmt.Errorf("turn: thread %q: %w", t.Thread, ErrNoStore)
	}
	ctx, release, err := a.hold(ctx, t)
	if err != nil {
		return ctx, nil, nil, err
	}
	last, err := a.LastTurn(ctx, t.Thread)
	switch {
	case err == nil:
		t.History, t.Number = last.State.Messages, last.State.Turn+1
	case !errors.Is(err, checkpoint.ErrNotFound):
		release()
		return ctx, nil, nil, err
	}
	if t.SessionID == "" {
		t.SessionID = t.Thread
	}
	// The turn's state is whole: built from the last turn that ended (not
	// the latest checkpoint, which may be a cut turn's), so it replaces the
	// thread's state rather than merging into it; and a new message drops
	// a draft still held for review, as it did before threads refused
	// input while they wait.
	return ctx, []graph.RunOption{graph.WithThread(t.Thread), graph.ReplaceState(), graph.ReplacePending(), turnDurability}, release, nil
}

// turnDurability writes a turn's checkpoint when it ends, is held for
// review or fails: one write a turn, not one a step. What a turn needs of
// its thread is kept: the next turn builds on the last turn that ended
// (LastTurn), a draft held for review is written before the turn returns
// and resumes from there, and a turn that failed or was cut short writes
// where it stopped, which Resume continues. Only a turn whose process
// died leaves nothing, as if it had never started; its message is sent
// again.
var turnDurability = graph.WithDurability(graph.DurabilityExit)

// turnStates is how many sessions' last states an agent keeps in memory
// (graph.CacheStates), so that their next turns need not decode them: the
// sessions that ended a turn last, about 200 KB of memory each for a
// default turn (BenchmarkServeLoadSessions: 64 sessions kept 13 MB).
const turnStates = 128

// retain applies the configured retention to a thread after its turn; a
// failure costs only the tidying, so it is logged, not returned.
func (a *Agent) retain(ctx context.Context, thread string) {
	r := a.cfg.Threads.Retention()
	if r.KeepLast == 0 && r.MaxAge == 0 {
		return
	}
	if _, err := a.store.Prune(context.WithoutCancel(ctx), thread, r); err != nil {
		zerolog.Ctx(ctx).Warn().Err(err).Str("thread", thread).Msg("thread retention")
	}
}

// eventOf is the turn event a chunk of the custom or messages stream
// carries; a node of the caller's own may write other values there.
func eventOf(c graph.Chunk[State]) (contracts.Event, bool) {
	v := c.Custom
	if c.Mode == graph.StreamMessages {
		v = c.Message
	}
	ev, ok := v.(contracts.Event)
	return ev, ok
}

// Run runs one turn and returns its structured result with personal data
// masked (Masked). Its query traces, the searches the agent ran and what
// each found, are there with output.include_query_traces or
// Turn.QueryTraces, and empty otherwise.
//
// A turn whose model could not be reached returns, with the error (a
// *models.CallError), a result of action "error" whose Failure says which
// node, host and cause: there is no answer, and none is made up.
func (a *Agent) Run(ctx context.Context, t Turn) (contracts.StructuredResult, error) {
	s, err := a.RunState(ctx, t)
	if err != nil {
		if f, ok := models.FailureOf(err); ok && ctx.Err() == nil {
			f.Message = MaskText(f.Message)
			return contracts.StructuredResult{SessionID: t.SessionID, Turn: max(t.Number, 1), Action: contracts.ActionError, Failure: &f}, err
		}
		return contracts.StructuredResult{}, err
	}
	res := a.Masking().Result(a.Result(s))
	if !a.cfg.Output.IncludeQueryTraces && !t.QueryTraces {
		res.QueryTraces = []contracts.QueryTrace{} // what the agent searched is internal unless asked for (seed 003)
	}
	return res, nil
}

// Result is the structured result of a finished turn's state, unmasked;
// pass it through Masking.Result before it leaves the program. It carries the plan
// and the planning call as DT-004's metadata row says.
func (a *Agent) Result(s *contracts.ChatState) contracts.StructuredResult {
	r := contracts.StructuredResult{SessionID: s.SessionID, Turn: s.Turn, Action: s.Action, Answer: s.Answer, UI: s.UI,
		Moderation: s.Moderation, Plan: s.Plan, Verdict: s.Verdict, Review: s.Review, RetryCount: s.RetryCount, Evidence: s.Evidence,
		QueryTraces: s.QueryTraces, Articles: s.Articles, Diagnostics: s.Diagnostics, Decisions: s.Made, Context: s.Messages}
	meta := nodes.MetadataChannel(s, a.outputs)
	if !meta.StructuredData {
		r.Plan = nil
	}
	if !meta.ToolTrace {
		r.Diagnostics.ModelCalls = slices.DeleteFunc(slices.Clone(r.Diagnostics.ModelCalls),
			func(c contracts.ModelCall) bool { return c.Node == nodes.SGRPlanName })
	}
	return r
}

// Stream runs one turn in the background. Its events arrive on the channel
// as they happen (after t.Events, if set, has seen each); the channel closes
// when the turn ends, and wait then returns the result, masked as Run's.
// Read every event or cancel ctx: the turn waits for its reader.
//
// The events are safe to show as they come: personal data is masked, and
// token events carry only an answer the Guardian has passed; they arrive
// right after its PASS verdict, never before (RunState).
func (a *Agent) Stream(ctx context.Context, t Turn) (events <-chan contracts.Event, wait func() (contracts.StructuredResult, error)) {
	ch := make(chan contracts.Event, 64)
	done := make(chan struct{})
	var res contracts.StructuredResult
	var err error
	also := t.Events
	t.Events = func(ev contracts.Event) {
		if also != nil {
			also(ev)
		}
		select {
		case ch <- ev:
		case <-ctx.Done():
		}
	}
	go func() {
		defer close(done)
		defer close(ch)
		res, err = a.Run(ctx, t)
	}()
	return ch, func() (contracts.StructuredResult, error) {
		<-done
		return res, err
	}
}
