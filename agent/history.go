package agent

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/cloudwego/eino/schema"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/nodes"
	"github.com/sgrgraph/sgrgraph/prebuilt"
)

// Carry is the model context a conversation's next turn starts from: of
// every earlier turn, the user's messages and the answers they got. The
// plan's synthetic messages, tool calls and their results, withdrawn
// drafts and the Guardian's review messages served their turn and are
// dropped; then the oldest turns go until the rest fits budget tokens
// (estimated, erring high). A budget of 0 carries nothing.
//
// The cut is prebuilt.Trim's (the newest messages that fit, opening with
// the user's words), counting by estimateTokens; unlike Trim, a newest
// message over the budget is not kept: the turn's own message is the one
// the model must answer, and it is added after.
func Carry(history []*schema.Message, budget int) []*schema.Message {
	var kept []*schema.Message
	for i, m := range history {
		switch {
		case contracts.Synthetic(m), m.Role == schema.Tool, m.Role == schema.System, len(m.ToolCalls) > 0:
		case m.Role == schema.User && strings.HasPrefix(m.Content, nodes.ReviewMarker):
		case m.Role == schema.Assistant && withdrawn(history, i):
		case strings.TrimSpace(m.Content) == "":
		default:
			kept = append(kept, contracts.Unmarked(m))
		}
	}
	if budget <= 0 || len(kept) == 0 {
		return nil
	}
	count := func(ms []*schema.Message) int {
		n := 0
		for _, m := range ms {
			n += estimateTokens(m.Content)
		}
		return n
	}
	kept = prebuilt.Trim(kept, prebuilt.TrimOptions{MaxTokens: budget, Counter: count})
	if count(kept) > budget {
		return nil // not even the newest message fits: Trim keeps it, a carried context does not
	}
	for len(kept) > 0 && kept[0].Role != schema.User {
		kept = kept[1:] // a context opens with the user's words, never with an answer cut from its question
	}
	return slices.Clip(kept)
}

// withdrawn says whether the assistant message at i is a draft the
// Guardian sent back: a review message follows it before the user speaks.
func withdrawn(history []*schema.Message, i int) bool {
	for _, m := range history[i+1:] {
		if m.Role == schema.User {
			return strings.HasPrefix(m.Content, nodes.ReviewMarker)
		}
	}
	return false
}

// estimateTokens errs high: a token holds about four bytes of English and
// two or three characters of Russian, so one token per three characters,
// plus the message's own framing.
func estimateTokens(text string) int {
	return utf8.RuneCountInString(text)/3 + 4
}
