package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/guards"
	"github.com/sgrgraph/sgrgraph/nodes"
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
	prelude string // sent just before the first event (a completion's role chunk)
}

func newSSE(w http.ResponseWriter) *sse {
	return &sse{w: w, rc: http.NewResponseController(w)}
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

func (s *sse) data(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return s.raw("data: " + string(b) + "\n\n")
}

// event sends v as an SSE event of the given name.
func (s *sse) event(name string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return s.raw("event: " + name + "\ndata: " + string(b) + "\n\n")
}

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

// stream runs the turn and sends its answer as chunks: the role first,
// then the answer's tokens as the agent releases them (after the
// Guardian's PASS, never a draft), then what of the final answer the
// tokens did not carry (the sources), then the finish, the usage and
// [DONE].
func (s *Server) stream(ctx context.Context, w http.ResponseWriter, r *http.Request, t agent.Turn, p reply) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := newSSE(w)
	sendErr := out.startWith(p.chunk(delta{Role: "assistant"}, nil))
	events, wait := s.runStream(ctx, t)
	var sent strings.Builder
	cut := &streamCut{shape: p.shape}
	var burst []string
	// flush sends the tokens held since the last other event. The agent
	// masks personal data token by token, so a value split between two
	// tokens would pass unmasked: the burst is masked whole, and sent as
	// its tokens only when masking changed nothing.
	flush := func() {
		if len(burst) == 0 || sendErr != nil {
			burst = burst[:0]
			return
		}
		joined := strings.Join(burst, "")
		pieces := burst
		if masked := guards.MaskSensitiveData(joined); masked != joined {
			pieces = []string{masked}
		}
		for _, piece := range pieces {
			if piece = cut.take(piece); piece == "" {
				continue
			}
			if sendErr = out.data(p.chunk(delta{Content: piece}, nil)); sendErr != nil {
				break
			}
			sent.WriteString(piece)
		}
		burst = burst[:0]
	}
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	for open := true; open; {
		select {
		case ev, ok := <-events:
			switch {
			case !ok:
				open = false
				flush()
			case ev.Kind == contracts.EventToken && ev.Node == nodes.AgentModelName:
				burst = append(burst, ev.Text)
			default:
				flush()
			}
		case <-tick.C:
			flush()
			if sendErr == nil {
				sendErr = out.raw(": keep-alive\n\n")
			}
		}
		if sendErr != nil && ctx.Err() == nil {
			cancel() // the client is gone: stop the turn; the loop drains its last events
		}
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
		sendErr = out.raw("data: [DONE]\n\n")
	}
	if sendErr != nil {
		s.opts.Log.Info().Str("request", recordOf(r).id).Err(sendErr).Msg("client went away at the end of the stream")
	}
}
