package agent

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/events"
	"github.com/sgrgraph/sgrgraph/graph"
	"github.com/sgrgraph/sgrgraph/models"
	"github.com/sgrgraph/sgrgraph/outbound"
)

// running is one run of a node: what a subgraph's nodes tell it (that
// they count the work), and the outbound retries it saw.
type running struct {
	name    string
	inner   atomic.Int32
	mu      sync.Mutex
	retries []contracts.Retry
}

type runningKey struct{}

// nodeOf is the node running in ctx, or "".
func nodeOf(ctx context.Context) string {
	if r, ok := ctx.Value(runningKey{}).(*running); ok {
		return r.name
	}
	return ""
}

// observeAttempt records an outbound attempt with the innermost node
// running in the call's context, and reports it as an event. One observer,
// installed by RunState, serves a whole turn: a context knows its node.
func observeAttempt(ctx context.Context, a outbound.Attempt) {
	r, ok := ctx.Value(runningKey{}).(*running)
	if !ok {
		return
	}
	rt := contracts.Retry{Node: r.name, Service: a.Service, Try: a.Try, Status: a.Status,
		Error: a.Error, WaitMS: float64(a.Wait.Microseconds()) / 1000, Retried: a.Retried}
	r.mu.Lock()
	r.retries = append(r.retries, rt)
	r.mu.Unlock()
	// A live view must know: tokens of a cut stream are followed by the
	// whole reply again. It is told the status, not the error's text, which
	// may name a host (the diagnostics keep it).
	what := "no reply"
	if a.Status != 0 {
		what = fmt.Sprintf("HTTP %d", a.Status)
	}
	events.Emit(ctx, contracts.Event{Kind: contracts.EventRetry, Error: fmt.Sprintf("%s try %d failed: %s", a.Service, a.Try, what)})
}

// instrument is the middleware of the default graph: it logs each node with
// the session, turn and node, reports its start and end as events, times
// it and counts its tokens and outbound retries into the diagnostics. A
// node whose work is done by nodes inside it (a subgraph) records only its
// time, so no token or retry is counted twice. A turn nobody logs or
// watches pays only for the timing and the counts.
func instrument(name string, next graph.NodeFunc[*contracts.ChatState]) graph.NodeFunc[*contracts.ChatState] {
	return func(ctx context.Context, s *contracts.ChatState) (*contracts.ChatState, error) {
		if s == nil {
			return nil, fmt.Errorf("node %q: nil state", name)
		}
		if outer, ok := ctx.Value(runningKey{}).(*running); ok {
			outer.inner.Add(1)
		}
		run := &running{name: name}
		ctx = context.WithValue(ctx, runningKey{}, run)
		log := zerolog.Ctx(ctx)
		if log.GetLevel() != zerolog.Disabled {
			l := log.With().Str("session", s.SessionID).Int("turn", s.Turn).Str("node", name).Logger()
			log, ctx = &l, l.WithContext(ctx)
		}
		watched := graph.Path(ctx) != ""
		if watched { // the run streams: the node's events join the graph's stream
			ctx = events.WithSink(ctx, streamed(ctx))
		} else {
			watched = events.Watched(ctx)
		}
		if watched {
			ctx = events.WithNode(ctx, name)
			events.Emit(ctx, contracts.Event{Kind: contracts.EventNodeStart})
		}
		calls, errs := len(s.Diagnostics.ModelCalls), len(s.Diagnostics.Errors)
		start := time.Now()
		out, err := next(ctx, s)
		took := time.Since(start)
		ms := float64(took.Microseconds()) / 1000
		if err != nil && graph.IsInterrupt(err) {
			log.Info().Dur("took", took).Msg("node paused for input")
			return nil, err
		}
		if err != nil {
			shown := err.Error()
			if f, ok := models.FailureOf(err); ok {
				// Whoever ran the turn reports it once, as a failure; a live
				// view is told the node failed in words for its reader, with
				// no address or Go error in them.
				log.Info().Err(err).Dur("took", took).Msg("node failed: the model did not answer")
				shown = "the model service did not answer (" + string(f.Cause) + ")"
			} else {
				log.Error().Err(err).Dur("took", took).Int("attempt", graph.Attempt(ctx)).Msg("node failed")
			}
			if watched {
				events.Emit(ctx, contracts.Event{Kind: contracts.EventNodeEnd, DurationMS: ms, Error: shown})
			}
			return nil, fmt.Errorf("node %q: %w", name, err)
		}
		if out == nil {
			return nil, fmt.Errorf("node %q: returned a nil state", name)
		}
		attempt := 0
		if n := graph.Attempt(ctx); n > 1 {
			attempt = n
		}
		if run.inner.Load() > 0 { // its nodes counted the tokens and retries
			out.Diagnostics.Nodes = append(out.Diagnostics.Nodes, contracts.NodeRun{Node: name, DurationMS: ms, Attempt: attempt})
			if watched {
				events.Emit(ctx, contracts.Event{Kind: contracts.EventNodeEnd, DurationMS: ms})
			}
			return out, nil
		}
		nr := contracts.NodeRun{Node: name, DurationMS: ms, Attempt: attempt}
		if calls <= len(out.Diagnostics.ModelCalls) {
			for _, c := range out.Diagnostics.ModelCalls[calls:] {
				nr.PromptTokens += c.PromptTokens
				nr.CompletionTokens += c.CompletionTokens
				out.Diagnostics.Tokens.Estimated = out.Diagnostics.Tokens.Estimated || c.TokensEstimated
			}
		}
		out.Diagnostics.Tokens.Prompt += nr.PromptTokens
		out.Diagnostics.Tokens.Completion += nr.CompletionTokens
		out.Diagnostics.Nodes = append(out.Diagnostics.Nodes, nr)
		run.mu.Lock()
		out.Diagnostics.Retries = append(out.Diagnostics.Retries, run.retries...)
		run.mu.Unlock()
		if errs <= len(out.Diagnostics.Errors) {
			for _, e := range out.Diagnostics.Errors[errs:] {
				log.Warn().Str("recovered", e.Message).Msg("node recovered from an error")
			}
		}
		if watched {
			events.Emit(ctx, contracts.Event{Kind: contracts.EventNodeEnd, DurationMS: ms})
		}
		log.Debug().Dur("took", took).Msg("node done")
		return out, nil
	}
}

// streamed sends a node's events into the graph's stream: model tokens in
// the messages mode, every other event in the custom mode, each with the
// node's path.
func streamed(ctx context.Context) events.Sink {
	return func(ev contracts.Event) {
		if ev.Kind == contracts.EventToken {
			graph.EmitMessage(ctx, ev)
			return
		}
		graph.Emit(ctx, ev)
	}
}
