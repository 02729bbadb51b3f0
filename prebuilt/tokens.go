package prebuilt

import (
	"sync"

	"github.com/cloudwego/eino/schema"
	"github.com/tiktoken-go/tokenizer"
)

// o200k is the tokenizer of OpenAI's current models, the one sgrgraph
// counts tokens with elsewhere (models/openai, the server's cuts); loaded
// on first use, which takes a tenth of a second.
var o200k = sync.OnceValues(func() (tokenizer.Codec, error) { return tokenizer.Get(tokenizer.O200kBase) })

// CountTokens counts the tokens of messages with o200k_base as
// models/openai estimates a prompt: four for each message's role and
// separators, its text, and each tool call's name and arguments. Another
// model's tokenizer counts differently; leave a margin, or give Trim and
// Summarize a counter of your own.
func CountTokens(ms []*schema.Message) int {
	n := 0
	for _, m := range ms {
		n += messageTokens(m)
	}
	return n
}

func messageTokens(m *schema.Message) int {
	if m == nil {
		return 0
	}
	n := 4 + textTokens(m.Content) + textTokens(m.ReasoningContent)
	for _, p := range m.UserInputMultiContent {
		n += textTokens(p.Text)
	}
	for _, tc := range m.ToolCalls {
		n += textTokens(tc.Function.Name) + textTokens(tc.Function.Arguments)
	}
	return n
}

func textTokens(s string) int {
	if s == "" {
		return 0
	}
	codec, err := o200k()
	if err == nil {
		if n, err := codec.Count(s); err == nil {
			return n
		}
	}
	return (len(s) + 3) / 4 // the tokenizer failed: about four bytes a token
}
