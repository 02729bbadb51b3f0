// Package openai is the model provider "openai": any server that speaks the
// OpenAI chat-completions protocol (OpenAI, vLLM, Ollama, LM Studio,
// llama.cpp server, OpenRouter ...), through eino-ext's client. It adds what
// sgrgraph needs of every outbound call and of such servers in practice:
// the outbound retry policy; a stream that ends before its finish_reason,
// broken or closed as if whole, asked again from the start and never taken
// as the answer; a server's level of support for forced tool choice; and
// token counts estimated with a real tokenizer when the server sends none.
package openai

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	einoopenai "github.com/cloudwego/eino-ext/components/model/openai"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"github.com/tiktoken-go/tokenizer"

	"github.com/sgrgraph/sgrgraph/models"
	"github.com/sgrgraph/sgrgraph/outbound"
)

// How a server supports tool_choice naming one function.
const (
	// ForcedNamed sends {"type":"function","function":{"name":…}}.
	ForcedNamed = "named"
	// ForcedRequired sends "required"; right when the forced tool is the
	// only one offered, as in the planning call.
	ForcedRequired = "required"
	// ForcedNone sends "auto" and asks for the call in the prompt, for
	// servers that refuse forced choice (some answer 404).
	ForcedNone = "none"
)

// Config is one model endpoint.
type Config struct {
	BaseURL     string
	APIKey      string
	Model       string
	Temperature *float32
	MaxTokens   int
	// Timeout bounds one call, its retries included.
	Timeout time.Duration
	// ConnectTimeout bounds one connection (0: outbound's default);
	// IdleTimeout a reply that stops sending (0: none).
	ConnectTimeout, IdleTimeout time.Duration
	Headers                     map[string]string
	// ForcedToolChoice is named, required or none.
	ForcedToolChoice string
	Retry            outbound.Policy
}

// Model is an OpenAI-compatible chat model. It is safe for concurrent use.
type Model struct {
	inner  model.ToolCallingChatModel
	cfg    Config
	tokens *counter
}

var _ model.ToolCallingChatModel = (*Model)(nil)

// New checks c and makes the model; it does not call the server.
func New(ctx context.Context, c Config) (*Model, error) {
	if c.BaseURL == "" {
		return nil, errors.New("base_url: must not be empty")
	}
	if c.Model == "" {
		return nil, errors.New("name: the model name must not be empty")
	}
	switch c.ForcedToolChoice {
	case "":
		c.ForcedToolChoice = ForcedNamed
	case ForcedNamed, ForcedRequired, ForcedNone:
	default:
		return nil, fmt.Errorf("forced_tool_choice: %q is not named, required or none", c.ForcedToolChoice)
	}
	if err := c.Retry.Validate(); err != nil {
		return nil, fmt.Errorf("retry.%w", err)
	}
	header := http.Header{}
	for k, v := range c.Headers {
		header.Set(k, v)
	}
	return build(ctx, c, outbound.Client("model", c.Retry, header, outbound.Timeouts{Connect: c.ConnectTimeout, Idle: c.IdleTimeout}))
}

// build makes the model of a checked configuration over client.
func build(ctx context.Context, c Config, client *http.Client) (*Model, error) {
	cfg := &einoopenai.ChatModelConfig{BaseURL: c.BaseURL, APIKey: c.APIKey, Model: c.Model, Temperature: c.Temperature,
		HTTPClient: client}
	if c.MaxTokens > 0 {
		cfg.MaxTokens = &c.MaxTokens
	}
	inner, err := einoopenai.NewChatModel(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("openai model: %w", err)
	}
	return &Model{inner: inner, cfg: c, tokens: &counter{}}, nil
}

// Generate answers with one message.
func (m *Model) Generate(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	in, opts = m.adapt(in, opts)
	opts, err := ownTools(opts)
	if err != nil {
		return nil, err
	}
	ctx, cancel := m.bound(ctx)
	defer cancel()
	msg, err := m.inner.Generate(ctx, in, opts...)
	if err != nil {
		return nil, withStatus(err)
	}
	m.estimate(in, msg)
	return msg, nil
}

// Stream answers chunk by chunk. Tokens reach callbacks as the server sends
// them; the stream returned holds the reply of the try that completed, so a
// cut stream asked again never yields half a reply twice.
func (m *Model) Stream(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	in, opts = m.adapt(in, opts)
	opts, err := ownTools(opts)
	if err != nil {
		return nil, err
	}
	ctx, cancel := m.bound(ctx)
	defer cancel()
	for try := 1; ; try++ {
		msg, err := m.streamOnce(ctx, in, opts)
		if err == nil {
			m.estimate(in, msg)
			return schema.StreamReaderFromArray([]*schema.Message{msg}), nil
		}
		var cut *cutError
		if !errors.As(err, &cut) {
			return nil, withStatus(err) // the transport already retried what it could
		}
		if !m.cfg.Retry.Again(ctx, "model", try, err) {
			if cerr := ctx.Err(); cerr != nil {
				return nil, fmt.Errorf("openai model: %w (after %d tries): %w", err, try, cerr)
			}
			return nil, fmt.Errorf("openai model: %w (after %d tries)", err, try)
		}
	}
}

// cutError is a stream that ended before it said why it finished.
type cutError struct {
	chunks int
	err    error // what broke it; nil when it ended as if whole
}

func (e *cutError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("stream cut before finish_reason: the server ended it after %d chunks", e.chunks)
	}
	return fmt.Sprintf("stream cut after %d chunks: %v", e.chunks, e.err)
}

func (e *cutError) Unwrap() error { return e.err }

// Is makes a cut stream read as models.ErrStreamCut.
func (e *cutError) Is(target error) bool { return target == models.ErrStreamCut }

// streamOnce reads one try's stream to its end and joins it into the reply.
func (m *Model) streamOnce(ctx context.Context, in []*schema.Message, opts []model.Option) (*schema.Message, error) {
	sr, err := m.inner.Stream(ctx, in, opts...)
	if err != nil {
		return nil, err
	}
	defer sr.Close()
	var chunks []*schema.Message
	for {
		c, err := sr.Recv()
		if errors.Is(err, io.EOF) {
			return whole(chunks)
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, &cutError{chunks: len(chunks), err: err}
		}
		chunks = append(chunks, c)
	}
}

// whole joins the chunks of a stream that ended. It is the reply only if
// the server said why it finished: a server or proxy that closes the
// connection part way, with no length sent, ends the body as cleanly as a
// finished answer, and neither [DONE] nor its absence proves anything
// without a finish_reason.
func whole(chunks []*schema.Message) (*schema.Message, error) {
	if len(chunks) == 0 {
		return nil, &cutError{}
	}
	msg, err := schema.ConcatMessages(chunks)
	if err != nil {
		return nil, fmt.Errorf("openai model: reply: %w", err)
	}
	if msg.ResponseMeta == nil || msg.ResponseMeta.FinishReason == "" {
		return nil, &cutError{chunks: len(chunks)}
	}
	return msg, nil
}

// bound applies the call timeout, retries included.
func (m *Model) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	if m.cfg.Timeout <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, m.cfg.Timeout)
}

// WithTools returns a copy of the model with tools bound.
func (m *Model) WithTools(tools []*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	inner, err := m.inner.WithTools(tools)
	if err != nil {
		return nil, err
	}
	c := *m
	c.inner = inner
	return &c, nil
}

// Host is the server's host and port, for messages that name it.
func (m *Model) Host() string {
	if u, err := url.Parse(m.cfg.BaseURL); err == nil && u.Host != "" {
		return u.Host
	}
	return m.cfg.BaseURL
}

// GetType names the model in callbacks.
func (m *Model) GetType() string { return "OpenAI" }

// IsCallbacksEnabled reports true: eino-ext's client reports its own callbacks.
func (m *Model) IsCallbacksEnabled() bool { return true }

// adapt rewrites a forced tool choice the server cannot take.
func (m *Model) adapt(in []*schema.Message, opts []model.Option) ([]*schema.Message, []model.Option) {
	o := model.GetCommonOptions(nil, opts...)
	if o.ToolChoice == nil || *o.ToolChoice != schema.ToolChoiceForced {
		return in, opts
	}
	switch m.cfg.ForcedToolChoice {
	case ForcedRequired:
		// eino-ext names the tool whenever one is offered; only an
		// explicit body field sends the plain "required".
		return in, append(opts, einoopenai.WithExtraFields(map[string]any{"tool_choice": "required"}))
	case ForcedNone:
		ask := "Before you answer, call one of the tools offered."
		if len(o.AllowedToolNames) == 1 {
			ask = "Answer by calling the function " + o.AllowedToolNames[0] + " now; do not reply with text."
		}
		return withInstruction(in, ask), append(opts, model.WithToolChoice(schema.ToolChoiceAllowed))
	}
	return in, opts
}

// withInstruction adds text to the system prompt, or makes one: some chat
// templates refuse a system message anywhere but first.
func withInstruction(in []*schema.Message, text string) []*schema.Message {
	out := append([]*schema.Message(nil), in...)
	if len(out) > 0 && out[0].Role == schema.System {
		c := *out[0]
		c.Content = strings.TrimRight(c.Content, "\n") + "\n\n" + text
		out[0] = &c
		return out
	}
	return append([]*schema.Message{schema.SystemMessage(text)}, out...)
}

// estimate fills in token counts the server did not send, and marks them.
func (m *Model) estimate(in []*schema.Message, msg *schema.Message) {
	if msg.ResponseMeta != nil && msg.ResponseMeta.Usage != nil && msg.ResponseMeta.Usage.TotalTokens > 0 {
		return
	}
	prompt, completion := m.tokens.messages(in), m.tokens.messages([]*schema.Message{msg})
	if msg.ResponseMeta == nil {
		msg.ResponseMeta = &schema.ResponseMeta{}
	}
	msg.ResponseMeta.Usage = &schema.TokenUsage{PromptTokens: prompt, CompletionTokens: completion, TotalTokens: prompt + completion}
	if msg.Extra == nil {
		msg.Extra = map[string]any{}
	}
	msg.Extra[models.UsageEstimated] = true
}

// counter counts tokens with o200k_base, loaded on first use (it takes a
// tenth of a second) and shared by the model's copies.
type counter struct {
	once  sync.Once
	codec tokenizer.Codec
}

func (c *counter) messages(ms []*schema.Message) int {
	c.once.Do(func() { c.codec, _ = tokenizer.Get(tokenizer.O200kBase) })
	n := 0
	for _, m := range ms {
		n += 4 // role and separators, as OpenAI's own accounting counts them
		n += c.count(m.Content)
		for _, tc := range m.ToolCalls {
			n += c.count(tc.Function.Name) + c.count(tc.Function.Arguments)
		}
	}
	return n
}

func (c *counter) count(s string) int {
	if s == "" {
		return 0
	}
	if c.codec == nil {
		return (len(s) + 3) / 4 // the tokenizer failed to load: about four bytes a token
	}
	n, err := c.codec.Count(s)
	if err != nil {
		return (len(s) + 3) / 4
	}
	return n
}
