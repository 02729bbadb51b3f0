package events

import (
	"sync"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// HoldDrafts returns a sink that lets no model text through before the
// Guardian has passed it. A draft streams while the model writes it, but
// until the verdict it is only a draft: the Guardian may still reject it
// (for sensitive data, for missing evidence), and a reader who saw it
// would have seen the rejected text. So the sink holds back the token
// events of answerNode's latest reply and releases them, in order, right
// after a PASS verdict; any other verdict, and the end of a turn without
// one, drops them. Token events of other nodes are model output that is
// never an answer (the plan's JSON) and are dropped.
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
		release := ev.Verdict != nil && ev.Verdict.Verdict == contracts.VerdictPass
		tokens := h.tokens
		h.tokens = nil
		h.sink(ev)
		if release {
			for _, t := range tokens {
				h.sink(t)
			}
		}
		return
	}
	h.sink(ev)
}
