// Package offline is sgrgraph's embedded chat model: a deterministic,
// extractive engine that needs no server and no key. It implements eino's
// ToolCallingChatModel and plays both roles of a turn. Asked for
// analyse_user_request it fills the plan from the request and the
// vocabulary of the knowledge base; in the agent loop it reads its context
// like a model would: it searches with the plan's subqueries, follows the
// Guardian's required actions on a retry, and answers by quoting the best
// passages with numbered citations, in the language of the request.
//
// It writes no new prose: every sentence of an answer comes from the
// knowledge base. docs/offline-engine.md describes what it can and cannot do.
package offline

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"

	"github.com/sgrgraph/sgrgraph/models"
	"github.com/sgrgraph/sgrgraph/templates"
)

// Name is the provider name of the engine in configuration.
const Name = "offline"

// Tool names the engine knows how to use.
const (
	planTool   = "analyse_user_request"
	searchTool = "search_kb"
)

// Options configure the engine.
type Options struct {
	// Corpus is the text of the knowledge base, one entry an article that
	// starts with the article's title on a line of its own; its words are
	// the vocabulary that tells on-topic requests from off-topic ones, its
	// titles the things a question may name.
	Corpus []string
	// Reading, when given, is the corpus read already (Read), and Corpus
	// is not read.
	Reading *Reading
	// Product is named in clarification questions.
	Product string
	// Language is the answer language when the request has no letters to go by.
	Language string
	// KBLanguage is the language the articles are written in, which the
	// engine searches in whatever the user writes: auto (or empty) finds
	// it from the corpus, ru or en name it (kb.language).
	KBLanguage string
}

// Engine is the offline chat model. It is safe for concurrent use.
type Engine struct {
	*models.Model
	topics  topicModel
	titled  []found  // the knowledge base's titles as articles a question may name
	reading *Reading // the corpus read, whose titles found articles share
	kbLang  string   // "" when the articles mix languages
	sells   bool     // the knowledge base speaks of orders and purchases
	// definitions are the knowledge base's defining sentences by the name
	// they define (definitions.go).
	definitions func() map[string]string
	product     string
	fallback    string
	// named is productName, worked out when first asked for.
	named func() map[string]bool
}

// New builds the engine over a knowledge base's text.
func New(o Options) *Engine {
	e := &Engine{product: o.Product, fallback: o.Language}
	if e.product == "" {
		e.product = templates.NeutralProduct("en") // the neutral wording agent.ProductOf gives too
	}
	if e.fallback == "" {
		e.fallback = "en"
	}
	r := o.Reading
	if r == nil {
		r = Read(o.Corpus)
	}
	e.reading, e.titled, e.topics, e.definitions = r, withoutProduct(r.titled, e.product), r.topics, r.definitions
	e.kbLang = r.searchLanguage(o.KBLanguage)
	e.sells = len(r.corpus) > 0 && e.topics.relevance([]string{"purchase", "buy", "bought", "refund"}, nil) > 1
	e.named = sync.OnceValue(e.productName)
	e.Model = models.New("Offline", e.reply)
	return e
}

// KBLanguage is the language the engine searches in (see SearchLanguage).
func (e *Engine) KBLanguage() string { return e.kbLang }

func (e *Engine) reply(_ context.Context, in []*schema.Message, o *model.Options) ([]*schema.Message, error) {
	var msg *schema.Message
	var err error
	switch {
	case asksForPlan(o):
		msg, err = e.planCall(in)
	case offers(o, searchTool) && !forbids(o):
		msg = e.agentStep(in, o)
	default:
		msg = e.answer(in)
	}
	if err != nil {
		return nil, err
	}
	msg.ResponseMeta = &schema.ResponseMeta{FinishReason: finishReason(msg), Usage: usage(in, msg)}
	msg.Extra = map[string]any{models.UsageEstimated: true} // four bytes a token: no tokenizer of its own
	return chunk(msg), nil
}

// asksForPlan: the call forces the planning tool, or offers only it.
func asksForPlan(o *model.Options) bool {
	if !offers(o, planTool) {
		return false
	}
	if o.ToolChoice != nil && *o.ToolChoice == schema.ToolChoiceForced {
		return true
	}
	return len(o.Tools) == 1
}

func offers(o *model.Options, name string) bool {
	for _, t := range o.Tools {
		if t.Name == name {
			return true
		}
	}
	return false
}

func forbids(o *model.Options) bool {
	return o.ToolChoice != nil && *o.ToolChoice == schema.ToolChoiceForbidden
}

func finishReason(m *schema.Message) string {
	if len(m.ToolCalls) > 0 {
		return "tool_calls"
	}
	return "stop"
}

// usage estimates tokens as four characters each, the rule of thumb for
// the languages the engine speaks.
func usage(in []*schema.Message, out *schema.Message) *schema.TokenUsage {
	prompt := 0
	for _, m := range in {
		prompt += len(m.Content) / 4
		for _, tc := range m.ToolCalls {
			prompt += len(tc.Function.Arguments) / 4
		}
	}
	completion := len(out.Content) / 4
	for _, tc := range out.ToolCalls {
		completion += len(tc.Function.Arguments) / 4
	}
	return &schema.TokenUsage{PromptTokens: prompt, CompletionTokens: completion, TotalTokens: prompt + completion}
}

// chunk streams text a word at a time; tool calls come in one piece.
func chunk(m *schema.Message) []*schema.Message {
	if len(m.ToolCalls) > 0 || m.Content == "" {
		return []*schema.Message{m}
	}
	var pieces []string
	for rest := m.Content; rest != ""; {
		i := strings.IndexAny(rest[1:], " \n")
		piece := rest
		if i >= 0 {
			piece = rest[:i+1]
		}
		rest = rest[len(piece):]
		pieces = append(pieces, piece)
	}
	msgs := make([]schema.Message, len(pieces)) // one allocation for the whole reply, not one a word
	out := make([]*schema.Message, len(pieces))
	for i, piece := range pieces {
		msgs[i] = schema.Message{Role: schema.Assistant, Content: piece}
		out[i] = &msgs[i]
	}
	out[len(out)-1].ResponseMeta = m.ResponseMeta
	return out
}

// language is the language a request is written in, else the configured one.
func (e *Engine) language(text string) string {
	if l := templates.DetectLanguage(text); l != "" {
		return l
	}
	return e.fallback
}

func callID(n int) string { return fmt.Sprintf("offline_call_%d", n) }
