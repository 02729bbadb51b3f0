package prebuilt

import (
	"context"
	"fmt"

	"github.com/cloudwego/eino/schema"

	"github.com/sgrgraph/sgrgraph/graph"
)

// TrimOptions say how Trim cuts a conversation.
type TrimOptions struct {
	// MaxTokens is the budget of the messages kept, the pinned ones
	// included.
	MaxTokens int
	// Counter counts messages' tokens; nil is CountTokens (o200k_base).
	Counter func([]*schema.Message) int
	// StartAnywhere lets the kept messages start with an assistant
	// message. By default they start with a user message whenever one is
	// kept, as most chat APIs expect after the system message.
	StartAnywhere bool
}

// Trim is LangGraph's trim_messages with the "last" strategy: it keeps the
// newest messages that fit opts.MaxTokens and drops the older ones. Never
// dropped are the pinned messages that open the conversation, its system
// messages and the summary Summarize left; a tool call is kept or dropped
// with the tool messages that answer it, never one without the other. When
// not even the newest message (with its answers) fits, it is kept anyway:
// a model is never called with nothing to answer. ms is not changed.
func Trim(ms []*schema.Message, opts TrimOptions) []*schema.Message {
	count := opts.Counter
	if count == nil {
		count = CountTokens
	}
	head, units := split(ms)
	budget := opts.MaxTokens - count(head)
	from, used := len(units), 0
	for from > 0 {
		n := count(units[from-1])
		if used+n > budget {
			break
		}
		used += n
		from--
	}
	if from == len(units) && from > 0 {
		from-- // nothing fits: keep the newest anyway
	}
	kept := units[from:]
	if !opts.StartAnywhere {
		kept = startOnUser(kept)
	}
	out := append([]*schema.Message(nil), head...)
	for _, u := range kept {
		out = append(out, u...)
	}
	return out
}

// TrimNode is a node that trims the state's conversation (Trim): as an
// agent's pre-model hook (WithPreModelHook), or a node of its own. The
// messages it drops are gone from the state; in parallel branches, whose
// message lists are merged by append, trim after the join.
func TrimNode[S Messages](opts TrimOptions) graph.NodeFunc[S] {
	return func(_ context.Context, s S) (S, error) {
		if opts.MaxTokens <= 0 {
			return s, fmt.Errorf("trim: MaxTokens must be positive, got %d", opts.MaxTokens)
		}
		ms := s.GetMessages()
		if out := Trim(ms, opts); len(out) != len(ms) {
			s.SetMessages(out)
		}
		return s, nil
	}
}

// split cuts a conversation into its pinned head (the system messages and
// the summary that open it) and units: a message with the tool messages
// that follow it, so that a tool call and its answers stay together.
func split(ms []*schema.Message) (head []*schema.Message, units [][]*schema.Message) {
	i := 0
	for i < len(ms) && ms[i] != nil && (ms[i].Role == schema.System || isSummary(ms[i])) {
		i++
	}
	head = ms[:i:i]
	for _, m := range ms[i:] {
		if m != nil && m.Role == schema.Tool && len(units) > 0 {
			units[len(units)-1] = append(units[len(units)-1], m)
			continue
		}
		units = append(units, []*schema.Message{m})
	}
	return head, units
}

// startOnUser drops the units before the first that opens with a user
// message, when one does.
func startOnUser(units [][]*schema.Message) [][]*schema.Message {
	for i, u := range units {
		if u[0] != nil && u[0].Role == schema.User && !isSummary(u[0]) {
			return units[i:]
		}
	}
	return units
}
