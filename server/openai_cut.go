package server

import (
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// answerShape is how a chat request's fields shape its answer's content:
// response_format json_object or json_schema makes it the JSON answer,
// stop cuts it before the first stop sequence, and max_tokens (or
// max_completion_tokens) after that many tokens. The zero value leaves
// the answer as the turn gave it.
type answerShape struct {
	maxTokens int // 0: no limit
	stops     []string
	json      bool
	fields    []string // the JSON answer's fields
}

// shaped is an answer's content as its request shaped it.
type shaped struct {
	content string
	finish  string // stop, or length when the token limit cut the content
	// tokens is the content's count of tokens, when a limit was asked
	// (counted).
	tokens  int
	counted bool
}

// apply shapes a turn's answer. Completions and streams both end with it,
// so a stream's content is the completion's.
func (a answerShape) apply(res contracts.StructuredResult) shaped {
	out := shaped{content: res.Answer, finish: "stop"}
	if a.json {
		out.content = jsonAnswer(res, a.fields)
	}
	if i := firstStop(out.content, a.stops); i >= 0 {
		out.content = out.content[:i]
	}
	if a.maxTokens > 0 {
		var cut bool
		out.content, out.tokens, cut = cutTokens(out.content, a.maxTokens)
		out.counted = true
		if cut {
			out.finish = "length"
		}
	}
	return out
}

// usage is the turn's usage; when a token limit was asked, the completion
// is counted as the content sent, which the limit bounds, rather than as
// every token the turn's model calls wrote.
func (s shaped) usage(res contracts.StructuredResult) usage {
	u := usageOf(res)
	if s.counted {
		u.CompletionTokens = s.tokens
		u.TotalTokens = u.PromptTokens + s.tokens
	}
	return u
}

// firstStop is where the first stop sequence in text begins, or -1.
func firstStop(text string, stops []string) int {
	first := -1
	for _, s := range stops {
		if i := strings.Index(text, s); i >= 0 && (first < 0 || i < first) {
			first = i
		}
	}
	return first
}

// heldBack is how many bytes at the end of text may begin a stop
// sequence that the text to come would complete.
func heldBack(text string, stops []string) int {
	held := 0
	for _, s := range stops {
		for n := min(len(s)-1, len(text)); n > held; n-- {
			if strings.HasSuffix(text, s[:n]) {
				held = n
				break
			}
		}
	}
	return held
}

// o200k is the tokenizer models/openai counts tokens with when a server
// sends no usage: the one of OpenAI's current models.
var o200k = sync.OnceValues(func() (tokenizer.Codec, error) { return tokenizer.Get(tokenizer.O200kBase) })

// cutTokens is text cut after its n-th token (never inside a character),
// the number of tokens kept, and whether anything was cut.
func cutTokens(text string, n int) (string, int, bool) {
	codec, err := o200k()
	var tokens []string
	if err == nil {
		_, tokens, err = codec.Encode(text)
	}
	if err != nil { // the tokenizer failed: about four bytes a token, as models/openai estimates
		return cutBytes(text, 4*n, n)
	}
	if len(tokens) <= n {
		return text, len(tokens), false
	}
	end := 0
	for _, t := range tokens[:n] {
		end += len(t) // a token is its bytes of text
	}
	return cutBytes(text, end, n)
}

// cutBytes is text cut to at most end bytes at a character's start.
func cutBytes(text string, end, tokens int) (string, int, bool) {
	if end >= len(text) {
		return text, (len(text) + 3) / 4, false
	}
	for end > 0 && !utf8.RuneStart(text[end]) {
		end--
	}
	return text[:end], tokens, true
}

// streamCut releases a streamed answer's pieces as the request's fields
// allow, so that what a stream sends is a beginning of what apply gives:
// text before a stop sequence goes at once, and text that may begin one
// waits for the piece that shows whether it does. Where a token limit
// cuts, and the JSON answer, depend on the whole answer: with either,
// nothing goes before the turn ends, and apply gives the content then.
type streamCut struct {
	shape    answerShape
	seen     string
	released int // bytes of seen sent
}

func (c *streamCut) take(piece string) string {
	switch {
	case c.shape.json || c.shape.maxTokens > 0:
		return ""
	case len(c.shape.stops) == 0:
		return piece
	}
	c.seen += piece
	end := firstStop(c.seen, c.shape.stops)
	if end < 0 {
		end = len(c.seen) - heldBack(c.seen, c.shape.stops)
	}
	if end <= c.released {
		return ""
	}
	out := c.seen[c.released:end]
	c.released = end
	return out
}
