package server

import (
	"context"
	"net/http"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/contracts"
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
	sendErr := out.relay(events, cancel, func(ev contracts.Event) error { return out.event(string(ev.Kind), ev) })
	res, err := wait()
	switch {
	case sendErr != nil:
		recordOf(r).status = 499
		s.opts.Log.Info().Str("request", recordOf(r).id).Err(sendErr).Msg("client went away mid-stream; turn cancelled")
		return
	case err != nil:
		if held, ok := s.heldTurn(ctx, r, err); ok {
			_ = out.event("interrupted", held)
			_ = out.done()
			return
		}
		if e := s.turnError(r, err); e != nil {
			_ = out.event("error", e.body())
		}
		return
	}
	recordOf(r).turn = res.Turn
	if out.event("result", res) == nil {
		_ = out.done()
	}
}
