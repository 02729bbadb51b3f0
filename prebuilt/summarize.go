package prebuilt

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"

	"github.com/sgrgraph/sgrgraph/graph"
)

// ExtraSummary marks (in a message's Extra) the message Summarize folded
// older messages into.
const ExtraSummary = "prebuilt_summary"

// SummaryPrefix opens the summary message.
const SummaryPrefix = "Summary of the conversation so far:\n"

// DefaultSummaryPrompt is the instruction of the summarizing call.
const DefaultSummaryPrompt = "You summarize a conversation between a user and an assistant so that the assistant can go on " +
	"with it without the messages. Keep the user's requests and preferences, the facts the tools returned, the decisions " +
	"made and what is still open; drop greetings and repetition. Write plain sentences, without a preamble."

// SummarizeOptions say when and how Summarize folds a conversation.
type SummarizeOptions struct {
	// Model writes the summary. It is called without tools.
	Model model.BaseChatModel
	// MaxTokens: a conversation over it is summarized; one within it is
	// left as it is.
	MaxTokens int
	// KeepTokens is the budget of the newest messages kept as they are
	// (MaxTokens/2 when 0); the newest message, with its tool messages,
	// is kept whatever its size.
	KeepTokens int
	// Prompt is the summarizing call's instruction (DefaultSummaryPrompt).
	Prompt string
	// Counter counts messages' tokens; nil is CountTokens (o200k_base).
	Counter func([]*schema.Message) int
}

// isSummary says whether m is the summary Summarize wrote.
func isSummary(m *schema.Message) bool {
	b, _ := m.Extra[ExtraSummary].(bool)
	return b
}

// Summarize folds the older part of a conversation over opts.MaxTokens
// into one message, made by a model call: the system messages that open
// the conversation stay first, the summary follows them, then the newest
// messages that fit opts.KeepTokens, as they are (a tool call with its
// answers, starting with a user message when one is kept). A summary
// already there is folded into the new one with the messages that follow
// it. The summary is a user message starting with SummaryPrefix, marked
// in its Extra with ExtraSummary, which Trim keeps and a later Summarize
// recognises. ms is not changed.
func Summarize(ctx context.Context, ms []*schema.Message, opts SummarizeOptions) ([]*schema.Message, error) {
	if opts.Model == nil {
		return nil, errors.New("summarize: no model")
	}
	if opts.MaxTokens <= 0 {
		return nil, fmt.Errorf("summarize: MaxTokens must be positive, got %d", opts.MaxTokens)
	}
	count := opts.Counter
	if count == nil {
		count = CountTokens
	}
	if count(ms) <= opts.MaxTokens {
		return ms, nil
	}
	keepBudget := opts.KeepTokens
	if keepBudget <= 0 {
		keepBudget = opts.MaxTokens / 2
	}
	pinned, units := split(ms)
	var system, previous []*schema.Message
	for _, m := range pinned {
		if isSummary(m) {
			previous = append(previous, m)
		} else {
			system = append(system, m)
		}
	}
	from, used := len(units), 0
	for from > 0 {
		n := count(units[from-1])
		if from < len(units) && used+n > keepBudget {
			break // the newest unit is kept whatever its size
		}
		used += n
		from--
	}
	kept := units[from:]
	if s := startOnUser(kept); len(s) < len(kept) {
		from += len(kept) - len(s)
		kept = s
	}
	if from == 0 {
		return ms, nil // nothing older to fold
	}
	var folded []*schema.Message
	for _, u := range units[:from] {
		folded = append(folded, u...)
	}
	text, err := summarize(ctx, opts, previous, folded)
	if err != nil {
		return nil, err
	}
	summary := schema.UserMessage(SummaryPrefix + text)
	summary.Extra = map[string]any{ExtraSummary: true}
	out := append(append([]*schema.Message(nil), system...), summary)
	for _, u := range kept {
		out = append(out, u...)
	}
	return out, nil
}

// summarize makes the summarizing call: the earlier summary and the
// messages to fold, written out as a transcript.
func summarize(ctx context.Context, opts SummarizeOptions, previous, folded []*schema.Message) (string, error) {
	var b strings.Builder
	for _, m := range previous {
		b.WriteString("The summary of what came before:\n")
		b.WriteString(strings.TrimPrefix(m.Content, SummaryPrefix))
		b.WriteString("\n\n")
	}
	b.WriteString("The conversation to summarize:\n")
	for _, m := range folded {
		if m == nil {
			continue
		}
		switch {
		case m.Role == schema.Tool:
			fmt.Fprintf(&b, "tool %s returned: %s\n", m.ToolName, m.Content)
		case len(m.ToolCalls) > 0:
			if m.Content != "" {
				fmt.Fprintf(&b, "%s: %s\n", m.Role, m.Content)
			}
			for _, c := range m.ToolCalls {
				fmt.Fprintf(&b, "%s called %s(%s)\n", m.Role, c.Function.Name, c.Function.Arguments)
			}
		default:
			fmt.Fprintf(&b, "%s: %s\n", m.Role, m.Content)
		}
	}
	prompt := opts.Prompt
	if prompt == "" {
		prompt = DefaultSummaryPrompt
	}
	msg, err := opts.Model.Generate(ctx, []*schema.Message{schema.SystemMessage(prompt), schema.UserMessage(b.String())})
	if err != nil {
		return "", fmt.Errorf("summarize: model: %w", err)
	}
	if msg == nil || strings.TrimSpace(msg.Content) == "" {
		return "", errors.New("summarize: the model wrote an empty summary")
	}
	return strings.TrimSpace(msg.Content), nil
}

// SummarizeNode is a node that summarizes the state's conversation when it
// is over opts.MaxTokens (Summarize): as an agent's pre-model hook
// (WithPreModelHook), or a node of its own. As with TrimNode, use it
// outside parallel branches.
func SummarizeNode[S Messages](opts SummarizeOptions) graph.NodeFunc[S] {
	return func(ctx context.Context, s S) (S, error) {
		ms := s.GetMessages()
		out, err := Summarize(ctx, ms, opts)
		if err != nil {
			return s, err
		}
		if len(out) != len(ms) {
			s.SetMessages(out)
		}
		return s, nil
	}
}
