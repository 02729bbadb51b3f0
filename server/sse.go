package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/contracts"
)

// keepAlive is how often an idle stream gets a comment line, so that
// proxies keep it open while the turn thinks and a gone client is noticed.
const keepAlive = 15 * time.Second

// reply is what every chunk of one completion repeats.
type reply struct {
	id           string
	created      int64
	model        string
	includeUsage bool
	withResult   bool        // the final chunk carries the structured result
	shape        answerShape // the request's max_tokens, stop and response_format
}

func (p reply) chunk(d delta, finish *string) chatChunk {
	return chatChunk{ID: p.id, Object: "chat.completion.chunk", Created: p.created, Model: p.model, Choices: []chunkChoice{{Delta: d, FinishReason: finish}}}
}

// sse writes server-sent events, each within its own write deadline. The
// status line goes out with the first event, not before: a turn that fails
// before it has anything to send is answered with its own status (a 503 an
// OpenAI client raises and retries), not a 200 followed by an error event.
type sse struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	started bool
	prelude string        // sent just before the first event (a completion's role chunk)
	every   time.Duration // how often relay sends a keep-alive line to an idle stream
}

func newSSE(w http.ResponseWriter) *sse {
	return &sse{w: w, rc: http.NewResponseController(w), every: keepAlive}
}

// startWith holds v to be sent first, once the stream starts.
func (s *sse) startWith(v any) error {
	b, err := json.Marshal(v)
	s.prelude = "data: " + string(b) + "\n\n"
	return err
}

// fail reports e: as the response, if the stream has not started, else as
// an error event, which OpenAI's clients raise as the stream's error.
func (s *sse) fail(e *apiError) {
	if !s.started {
		extendWrite(s.w)
		writeError(s.w, e)
		return
	}
	_ = s.data(e.body())
}

// data sends v as an unnamed event, as OpenAI's streams do.
func (s *sse) data(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return s.frame("", "", b)
}

// event sends v as an SSE event of the given name.
func (s *sse) event(name string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return s.frame("", name, b)
}

// frame sends one event: its id and name when given, and data, one line
// of JSON. Every event of every stream goes out through it.
func (s *sse) frame(id, name string, data []byte) error {
	var b strings.Builder
	if id != "" {
		b.WriteString("id: " + id + "\n")
	}
	if name != "" {
		b.WriteString("event: " + name + "\n")
	}
	b.WriteString("data: ")
	b.Write(data)
	b.WriteString("\n\n")
	return s.raw(b.String())
}

// keepAlive sends a comment line, which clients ignore and proxies take
// as traffic.
func (s *sse) keepAlive() error { return s.raw(": keep-alive\n\n") }

// done sends [DONE], the last line of a stream that ended as it should.
func (s *sse) done() error { return s.raw("data: [DONE]\n\n") }

func (s *sse) raw(line string) error {
	if !s.started {
		h := s.w.Header()
		h.Set("Content-Type", "text/event-stream")
		h.Set("Cache-Control", "no-cache")
		h.Set("X-Accel-Buffering", "no") // nginx would hold the stream back otherwise
		s.w.WriteHeader(http.StatusOK)
		s.started, line = true, s.prelude+line
	}
	_ = s.rc.SetWriteDeadline(time.Now().Add(writeWindow))
	if _, err := s.w.Write([]byte(line)); err != nil {
		return err
	}
	return s.rc.Flush()
}

// relay is the one loop that streams a turn: it sends the turn's events as
// they come, each through send (which writes it in the stream's own
// format, or skips it), and a keep-alive comment whenever none came for
// keepAlive. The events are the agent's view, masked and safe to show as
// they come; relay neither masks nor filters. When a send fails (the
// client is gone) it cancels the turn and reads the events left, so the
// turn can end; it returns the first send error.
func (s *sse) relay(events <-chan contracts.Event, cancel context.CancelFunc, send func(contracts.Event) error) error {
	tick := time.NewTicker(s.every)
	defer tick.Stop()
	var sendErr error
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				return sendErr
			}
			if sendErr == nil {
				sendErr = send(ev)
			}
		case <-tick.C:
			if sendErr == nil {
				sendErr = s.keepAlive()
			}
		}
		if sendErr != nil {
			cancel() // the client is gone: stop the turn; the loop drains its last events
		}
	}
}

// stream runs the turn and sends its answer as chunks: the role first,
// then the answer's tokens as the agent releases them (after the
// Guardian's PASS, never a draft), then what of the final answer the
// tokens did not carry (the sources), then the finish, the usage and
// [DONE].
func (s *Server) stream(ctx context.Context, w http.ResponseWriter, r *http.Request, t agent.Turn, p reply) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := newSSE(w)
	out.every = s.keepAlive
	sendErr := out.startWith(p.chunk(delta{Role: "assistant"}, nil))
	events, wait := s.runStream(ctx, t)
	var sent strings.Builder
	cut := &streamCut{shape: p.shape}
	// Token events are the accepted answer's pieces, masked by the agent
	// (a value split between tokens too); every other event has no place
	// in a completion.
	relayErr := out.relay(events, cancel, func(ev contracts.Event) error {
		if ev.Kind != contracts.EventToken {
			return nil
		}
		piece := cut.take(ev.Text)
		if piece == "" {
			return nil
		}
		if err := out.data(p.chunk(delta{Content: piece}, nil)); err != nil {
			return err
		}
		sent.WriteString(piece)
		return nil
	})
	if sendErr == nil {
		sendErr = relayErr
	}
	res, err := wait()
	if sendErr != nil {
		recordOf(r).status = 499
		s.opts.Log.Info().Str("request", recordOf(r).id).Err(sendErr).Msg("client went away mid-stream; turn cancelled")
		return
	}
	if err != nil {
		if e := s.turnError(r, err); e != nil {
			out.fail(e)
		}
		return
	}
	recordOf(r).turn = res.Turn
	final := p.shape.apply(res)
	if rest, ok := strings.CutPrefix(final.content, sent.String()); ok {
		if rest != "" {
			sendErr = out.data(p.chunk(delta{Content: rest}, nil))
		}
	} else {
		// The final answer does not continue what was streamed; what was
		// sent cannot be taken back. The whole answer is in the structured result.
		s.opts.Log.Warn().Str("request", recordOf(r).id).Msg("the streamed tokens differ from the final answer")
	}
	stop := final.finish
	last := p.chunk(delta{}, &stop)
	if p.withResult {
		last.SGRGraph = &res
	}
	if sendErr == nil {
		sendErr = out.data(last)
	}
	if p.includeUsage && sendErr == nil {
		u := final.usage(res)
		sendErr = out.data(chatChunk{ID: p.id, Object: "chat.completion.chunk", Created: p.created, Model: p.model, Choices: []chunkChoice{}, Usage: &u})
	}
	if sendErr == nil {
		sendErr = out.done()
	}
	if sendErr != nil {
		s.opts.Log.Info().Str("request", recordOf(r).id).Err(sendErr).Msg("client went away at the end of the stream")
	}
}
