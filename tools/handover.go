package tools

import (
	"sync"
	"unicode/utf8"

	"github.com/sgrgraph/sgrgraph/kb"
)

// maxHandedOver bounds the results search_kb keeps for the tool step: a
// few turns' worth of calls at once. A result pushed out before the step
// asks for it is parsed from the output instead, which gives the same.
const maxHandedOver = 256

// handOver keeps the results search_kb returned as JSON until the tool
// step that records them asks (nodes.AgentTools): it would otherwise parse
// back each output it was just given, the costliest part of recording.
// A result is handed over once, to the one step that asks with its output.
type handOver struct {
	mu   sync.Mutex
	ring [maxHandedOver]handed
	next int
}

type handed struct {
	out string
	res kb.Result
}

// keep holds res, whose JSON is out, when decoding out gives res back
// exactly.
func (h *handOver) keep(out string, res kb.Result) {
	if !roundTrips(res) {
		return
	}
	h.mu.Lock()
	h.ring[h.next] = handed{out: out, res: res}
	h.next = (h.next + 1) % maxHandedOver
	h.mu.Unlock()
}

// take returns the result whose JSON is out, and forgets it.
func (h *handOver) take(out string) (kb.Result, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i := range h.ring {
		if e := &h.ring[i]; len(e.out) == len(out) && e.out == out && out != "" {
			res := e.res
			*e = handed{}
			return res, true
		}
	}
	return kb.Result{}, false
}

// roundTrips says whether encoding res and decoding the JSON gives res
// back: not when a text is invalid UTF-8 (written as U+FFFD) or a list of
// tags is empty but not nil (left out, so read as nil).
func roundTrips(res kb.Result) bool {
	ok := utf8.ValidString(res.Query)
	for _, a := range res.Articles {
		ok = ok && utf8.ValidString(a.KBID) && utf8.ValidString(a.Title) && utf8.ValidString(a.URL) && (a.Tags == nil || len(a.Tags) > 0)
		for _, t := range a.Tags {
			ok = ok && utf8.ValidString(t)
		}
		for _, c := range a.Chunks {
			ok = ok && utf8.ValidString(c.ID) && utf8.ValidString(c.Heading) && utf8.ValidString(c.Text)
		}
	}
	return ok
}
