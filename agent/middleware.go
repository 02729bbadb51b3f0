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
	"github.com/sgrgraph/sgrgraph/outbound"
)

// scope is the node running in a context, so that a subgraph's node can
// tell it that the work is being done, and counted, inside.
type scope struct{ inner atomic.Int32 }

type scopeKey struct{}

// instrument is the middleware of the default graph: it logs each node with
// the session, turn and node, reports its start and end as events, times
// it and counts its tokens and outbound retries into the diagnostics. A
// node whose work is done by nodes inside it (a subgraph) records only its
// time, so no token or retry is counted twice.
func instrument(name string, next graph.NodeFunc[*contracts.ChatState]) graph.NodeFunc[*contracts.ChatState] {
	return func(ctx context.Context, s *contracts.ChatState) (*contracts.ChatState, error) {
		if s == nil {
			return nil, fmt.Errorf("node %q: nil state", name)
		}
		if outer, ok := ctx.Value(scopeKey{}).(*scope); ok {
			outer.inner.Add(1)
		}
		own := &scope{}
		ctx = context.WithValue(ctx, scopeKey{}, own)
		log := zerolog.Ctx(ctx).With().Str("session", s.SessionID).Int("turn", s.Turn).Str("node", name).Logger()
		ctx = events.WithNode(log.WithContext(ctx), name)
		if graph.Path(ctx) != "" { // the run streams: the node's events join the graph's stream
			ctx = events.WithSink(ctx, streamed(ctx))
		}
		events.Emit(ctx, contracts.Event{Kind: contracts.EventNodeStart})
		calls, errs := len(s.Diagnostics.ModelCalls), len(s.Diagnostics.Errors)
		var mu sync.Mutex
		var retries []contracts.Retry
		sink := ctx
		ctx = outbound.WithObserver(ctx, func(a outbound.Attempt) {
			if own.inner.Load() > 0 {
				return // an inner node records it
			}
			r := contracts.Retry{Node: name, Service: a.Service, Try: a.Try, Status: a.Status,
				Error: a.Error, WaitMS: float64(a.Wait.Microseconds()) / 1000, Retried: a.Retried}
			mu.Lock()
			retries = append(retries, r)
			mu.Unlock()
			// A live view must know: tokens of a cut stream are followed by the whole reply again.
			events.Emit(sink, contracts.Event{Kind: contracts.EventRetry, Error: fmt.Sprintf("%s try %d: %s", a.Service, a.Try, a.Error)})
		})
		start := time.Now()
		out, err := next(ctx, s)
		took := time.Since(start)
		ms := float64(took.Microseconds()) / 1000
		if err != nil {
			log.Error().Err(err).Dur("took", took).Int("attempt", graph.Attempt(ctx)).Msg("node failed")
			events.Emit(ctx, contracts.Event{Kind: contracts.EventNodeEnd, DurationMS: ms, Error: err.Error()})
			return nil, fmt.Errorf("node %q: %w", name, err)
		}
		if out == nil {
			return nil, fmt.Errorf("node %q: returned a nil state", name)
		}
		attempt := 0
		if n := graph.Attempt(ctx); n > 1 {
			attempt = n
		}
		if own.inner.Load() > 0 { // its nodes counted the tokens and retries
			out.Diagnostics.Nodes = append(out.Diagnostics.Nodes, contracts.NodeRun{Node: name, DurationMS: ms, Attempt: attempt})
			events.Emit(ctx, contracts.Event{Kind: contracts.EventNodeEnd, DurationMS: ms})
			return out, nil
		}
		run := contracts.NodeRun{Node: name, DurationMS: ms, Attempt: attempt}
		if calls <= len(out.Diagnostics.ModelCalls) {
			for _, c := range out.Diagnostics.ModelCalls[calls:] {
				run.PromptTokens += c.PromptTokens
				run.CompletionTokens += c.CompletionTokens
				out.Diagnostics.Tokens.Estimated = out.Diagnostics.Tokens.Estimated || c.TokensEstimated
			}
		}
		out.Diagnostics.Tokens.Prompt += run.PromptTokens
		out.Diagnostics.Tokens.Completion += run.CompletionTokens
		out.Diagnostics.Nodes = append(out.Diagnostics.Nodes, run)
		mu.Lock()
		out.Diagnostics.Retries = append(out.Diagnostics.Retries, retries...)
		mu.Unlock()
		if errs <= len(out.Diagnostics.Errors) {
			for _, e := range out.Diagnostics.Errors[errs:] {
				log.Warn().Str("recovered", e.Message).Msg("node recovered from an error")
			}
		}
		events.Emit(ctx, contracts.Event{Kind: contracts.EventNodeEnd, DurationMS: ms})
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
