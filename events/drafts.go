package events

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// HoldDrafts returns a sink that lets no model text through before the
// Guardian has passed it. A draft streams while the model writes it, but
// until the verdict it is only a draft: the Guardian may still reject it
// (for sensitive data, for missing evidence), and a reader who saw it
// would have seen the rejected text. So the sink holds back the token
// events of answerNode's latest reply; after a PASS verdict it releases
// them, in order, just before the answer's UI message (finalize's), since
// finalize may still change the text: it numbers the citations without
// gaps and may open the answer with a notice. When the tokens no longer
// spell the answer, the answer is released instead, a word at a time, so
// what was streamed is always the answer. Any other verdict, and the end
// of a turn without one, drops them. Token events of other nodes are model
// output that is never an answer (the plan's JSON) and are dropped.
//
// The latest reply is the one the model is writing: a new run of
// answerNode (its previous reply called tools) or a retried call (a cut
// stream is asked again from the start) starts it afresh.
//
// With answerNode empty no token is ever released: the answer reaches
// the reader whole, in its UI message (a draft a person may still edit).
//
// Every other event passes at once. The returned sink is safe for
// concurrent use and keeps the order it is called in.
func HoldDrafts(sink Sink, answerNode string) Sink {
	h := &held{sink: sink, node: answerNode}
	return h.event
}

type held struct {
	mu     sync.Mutex
	sink   Sink
	node   string
	tokens []contracts.Event
	passed bool // the Guardian passed the reply whose tokens are held
}

func (h *held) event(ev contracts.Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch ev.Kind {
	case contracts.EventToken:
		if ev.Node == h.node {
			h.tokens = append(h.tokens, ev)
		}
		return
	case contracts.EventNodeStart, contracts.EventRetry:
		if ev.Node == h.node {
			h.tokens = h.tokens[:0]
		}
	case contracts.EventVerdict:
		h.passed = ev.Verdict != nil && ev.Verdict.Verdict == contracts.VerdictPass
		if !h.passed {
			h.tokens = nil
		}
	case contracts.EventUI:
		if h.passed && ev.UI != nil && ev.UI.Type == contracts.UIAnswer {
			for _, t := range spelling(h.tokens, ev.UI.Content, h.node) {
				h.sink(t)
			}
			h.tokens, h.passed = nil, false
		}
	}
	h.sink(ev)
}

// spelling is tokens when they spell answer, else answer cut into words,
// each with the spaces that follow it, as token events of node.
func spelling(tokens []contracts.Event, answer, node string) []contracts.Event {
	n := 0
	for _, t := range tokens {
		if !strings.HasPrefix(answer[n:], t.Text) {
			n = -1
			break
		}
		n += len(t.Text)
	}
	if n == len(answer) {
		return tokens
	}
	var out []contracts.Event
	for rest := answer; rest != ""; {
		end := strings.IndexFunc(rest, unicode.IsSpace)
		if end < 0 {
			end = len(rest)
		}
		for end < len(rest) {
			r, size := utf8.DecodeRuneInString(rest[end:])
			if !unicode.IsSpace(r) {
				break
			}
			end += size
		}
		out = append(out, contracts.Event{Kind: contracts.EventToken, Node: node, Text: rest[:end]})
		rest = rest[end:]
	}
	return out
}
