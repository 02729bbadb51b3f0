package server

import (
	"context"
	"net/http"
	"time"

	"github.com/sgrgraph/sgrgraph/agent"
)

// streamEvents sends a turn's events as server-sent events, each named by
// its kind (node_start, node_end, ui, token, tool_call, tool_result,
// verdict, retry) and carrying the event as JSON with its node;
// then the structured result as a "result" event (or, for a draft held
// for review, an "interrupted" event: reviews.go), then [DONE]. These are
// what the CLI's live view shows: personal data masked, answer tokens
// only after the Guardian's PASS.
func (s *Server) streamEvents(ctx context.Context, w http.ResponseWriter, r *http.Request, t agent.Turn) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := newSSE(w)
	events, wait := s.runStream(ctx, t)
	var sendErr error
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	for open := true; open; {
		select {
		case ev, ok := <-events:
			if !ok {
				open = false
				break
			}
			if sendErr == nil {
				sendErr = out.event(string(ev.Kind), ev)
			}
		case <-tick.C:
			if sendErr == nil {
				sendErr = out.raw(": keep-alive\n\n")
			}
		}
		if sendErr != nil && ctx.Err() == nil {
			cancel() // the client is gone: stop the turn; the loop drains its last events
		}
	}
	res, err := wait()
	switch {
	case sendErr != nil:
		recordOf(r).status = 499
		s.opts.Log.Info().Str("request", recordOf(r).id).Err(sendErr).Msg("client went away mid-stream; turn cancelled")
		return
	case err != nil:
		if held, ok := s.heldTurn(ctx, r, err); ok {
			_ = out.event("interrupted", held)
			_ = out.raw("data: [DONE]\n\n")
			return
		}
		if e := s.turnError(r, err); e != nil {
			_ = out.event("error", e.body())
		}
		return
	}
	recordOf(r).turn = res.Turn
	if out.event("result", res) == nil {
		_ = out.raw("data: [DONE]\n\n")
	}
}
