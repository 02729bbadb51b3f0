package models

import (
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/sgrgraph/sgrgraph/outbound"
)

// Config is the model section of the configuration: the chat model. The endpoint fields serve every call; sgr
// and agent override them for the planning call and the agent loop, so
// separate models (or servers) can serve each.
type Config struct {
	// Provider is offline (the embedded engine) or openai (any server that
	// speaks the OpenAI chat-completions protocol).
	Provider string `yaml:"provider"`
	// Timeout bounds one model call, its retries included.
	Timeout time.Duration `yaml:"timeout"`
	// ConnectTimeout bounds one connection to the server: a host that
	// drops packets is reported in seconds rather than at Timeout.
	ConnectTimeout time.Duration `yaml:"connect_timeout"`
	// IdleTimeout bounds the wait for the next bytes of a reply: a stream
	// that stops part way is cut (and retried) rather than waited out.
	IdleTimeout time.Duration `yaml:"idle_timeout"`
	Endpoint    `yaml:",inline"`
	SGR         Endpoint        `yaml:"sgr"`
	Agent       Endpoint        `yaml:"agent"`
	Retry       outbound.Policy `yaml:"retry"`
}

// Endpoint is one OpenAI-compatible model.
type Endpoint struct {
	// BaseURL ends in /v1; empty: $OPENAI_BASE_URL, else OpenAI's own.
	BaseURL string `yaml:"base_url"`
	// APIKey; empty: $OPENAI_API_KEY.
	APIKey string `yaml:"api_key"`
	// Name is the model the server knows.
	Name        string            `yaml:"name"`
	Temperature *float64          `yaml:"temperature"`
	MaxTokens   int               `yaml:"max_tokens"`
	Headers     map[string]string `yaml:"headers"`
	// ForcedToolChoice is how the server takes a forced tool: named
	// (default), required, or none (it refuses forced choice).
	ForcedToolChoice string `yaml:"forced_tool_choice"`
}

// DefaultOpenAIBaseURL is where provider openai goes when nothing says otherwise.
const DefaultOpenAIBaseURL = "https://api.openai.com/v1"

// For is the endpoint of a role ("sgr" or "agent"): its own fields where
// set, the model's otherwise.
func (m Config) For(role string) Endpoint {
	e := m.Endpoint
	var o Endpoint
	switch role {
	case "sgr":
		o = m.SGR
	case "agent":
		o = m.Agent
	}
	if o.BaseURL != "" {
		e.BaseURL = o.BaseURL
	}
	if o.APIKey != "" {
		e.APIKey = o.APIKey
	}
	if o.Name != "" {
		e.Name = o.Name
	}
	if o.Temperature != nil {
		e.Temperature = o.Temperature
	}
	if o.MaxTokens != 0 {
		e.MaxTokens = o.MaxTokens
	}
	if len(o.Headers) > 0 {
		e.Headers = o.Headers
	}
	if o.ForcedToolChoice != "" {
		e.ForcedToolChoice = o.ForcedToolChoice
	}
	return e
}

// Validate names each key outside its limits.
func (m Config) Validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	switch m.Provider {
	case "offline", "openai":
	default:
		bad("provider: %q is not a known provider (offline, openai)", m.Provider)
	}
	if m.Timeout < time.Second || m.Timeout > 10*time.Minute {
		bad("timeout: %s is outside 1s..10m", m.Timeout)
	}
	if m.ConnectTimeout < 100*time.Millisecond || m.ConnectTimeout > time.Minute {
		bad("connect_timeout: %s is outside 100ms..1m", m.ConnectTimeout)
	}
	if m.IdleTimeout < time.Second || m.IdleTimeout > 10*time.Minute {
		bad("idle_timeout: %s is outside 1s..10m", m.IdleTimeout)
	}
	if err := m.Retry.Validate(); err != nil {
		for _, e := range unjoin(err) {
			bad("retry.%v", e)
		}
	}
	if m.Provider != "openai" {
		return errors.Join(errs...)
	}
	for _, role := range []string{"", "sgr", "agent"} {
		key := role
		if key != "" {
			key += "."
		}
		e := m.For(role)
		if e.Name == "" {
			bad("%sname: provider openai needs the model's name (--model NAME or model.name)", key)
		}
		if e.BaseURL != "" {
			if u, err := url.Parse(e.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				bad("%sbase_url: %q is not an http(s) URL", key, e.BaseURL)
			}
		}
		if e.Temperature != nil && (*e.Temperature < 0 || *e.Temperature > 2) {
			bad("%stemperature: %g is outside 0..2", key, *e.Temperature)
		}
		if e.MaxTokens < 0 || e.MaxTokens > 1_000_000 {
			bad("%smax_tokens: %d is outside 0..1000000", key, e.MaxTokens)
		}
		switch e.ForcedToolChoice {
		case "", "named", "required", "none":
		default:
			bad("%sforced_tool_choice: %q is not named, required or none", key, e.ForcedToolChoice)
		}
		if role == "" && len(errs) > 0 {
			return errors.Join(errs...) // the roles inherit the same faults; one report is enough
		}
	}
	return errors.Join(errs...)
}

// unjoin lists the errors a Validate joined.
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}
