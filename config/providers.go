package config

import (
	"fmt"
	"net/url"
	"time"
)

// Model chooses the chat model. The endpoint fields serve every call; sgr
// and agent override them for the planning call and the agent loop, so
// separate models (or servers) can serve each.
type Model struct {
	// Provider is offline (the embedded engine) or openai (any server that
	// speaks the OpenAI chat-completions protocol).
	Provider string `yaml:"provider"`
	// Timeout bounds one model call, its retries included.
	Timeout  time.Duration `yaml:"timeout"`
	Endpoint `yaml:",inline"`
	SGR      Endpoint `yaml:"sgr"`
	Agent    Endpoint `yaml:"agent"`
	Retry    Retry    `yaml:"retry"`
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

// Retry is the policy of every outbound call of one kind.
type Retry struct {
	Attempts  int           `yaml:"attempts"`
	BaseDelay time.Duration `yaml:"base_delay"`
	MaxDelay  time.Duration `yaml:"max_delay"`
}

// DefaultOpenAIBaseURL is where provider openai goes when nothing says otherwise.
const DefaultOpenAIBaseURL = "https://api.openai.com/v1"

// For is the endpoint of a role ("sgr" or "agent"): its own fields where
// set, the model's otherwise.
func (m Model) For(role string) Endpoint {
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

func (m Model) validate() []error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf("config: "+format, args...)) }
	switch m.Provider {
	case "offline", "openai":
	default:
		bad("model.provider: %q is not a known provider (offline, openai)", m.Provider)
	}
	if m.Timeout < time.Second || m.Timeout > 10*time.Minute {
		bad("model.timeout: %s is outside 1s..10m", m.Timeout)
	}
	errs = append(errs, m.Retry.validate("model.retry")...)
	if m.Provider != "openai" {
		return errs
	}
	for _, role := range []string{"", "sgr", "agent"} {
		key := "model"
		if role != "" {
			key = "model." + role
		}
		e := m.For(role)
		if e.Name == "" {
			bad("%s.name: provider openai needs the model's name (--model NAME or model.name)", key)
		}
		if e.BaseURL != "" {
			if u, err := url.Parse(e.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				bad("%s.base_url: %q is not an http(s) URL", key, e.BaseURL)
			}
		}
		if e.Temperature != nil && (*e.Temperature < 0 || *e.Temperature > 2) {
			bad("%s.temperature: %g is outside 0..2", key, *e.Temperature)
		}
		if e.MaxTokens < 0 || e.MaxTokens > 1_000_000 {
			bad("%s.max_tokens: %d is outside 0..1000000", key, e.MaxTokens)
		}
		switch e.ForcedToolChoice {
		case "", "named", "required", "none":
		default:
			bad("%s.forced_tool_choice: %q is not named, required or none", key, e.ForcedToolChoice)
		}
		if role == "" && len(errs) > 0 {
			return errs // the roles inherit the same faults; one report is enough
		}
	}
	return errs
}

func (r Retry) validate(key string) []error {
	var errs []error
	if r.Attempts < 1 || r.Attempts > 10 {
		errs = append(errs, fmt.Errorf("config: %s.attempts: %d is outside 1..10", key, r.Attempts))
	}
	if r.BaseDelay < 0 || r.BaseDelay > time.Minute {
		errs = append(errs, fmt.Errorf("config: %s.base_delay: %s is outside 0..1m", key, r.BaseDelay))
	}
	if r.MaxDelay < r.BaseDelay || r.MaxDelay > 5*time.Minute {
		errs = append(errs, fmt.Errorf("config: %s.max_delay: %s is outside base_delay..5m", key, r.MaxDelay))
	}
	return errs
}

// Guard configures the safety guard at the door.
type Guard struct {
	// Mode is enforce or report (DT-001).
	Mode string `yaml:"mode"`
	// Provider is rules (offline lexicon), mosec, or openai (a Qwen3Guard
	// model behind an OpenAI-compatible server).
	Provider string `yaml:"provider"`
	// Lexicon replaces the rules provider's embedded lexicon.
	Lexicon string `yaml:"lexicon"`
	// URL is the mosec endpoint, or the openai provider's base URL.
	URL     string        `yaml:"url"`
	Model   string        `yaml:"model"`
	APIKey  string        `yaml:"api_key"`
	Timeout time.Duration `yaml:"timeout"`
	Retry   Retry         `yaml:"retry"`
}

func (g Guard) validate() []error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf("config: "+format, args...)) }
	switch g.Provider {
	case "rules":
	case "mosec", "openai":
		if u, err := url.Parse(g.URL); g.URL == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("guard.url: %q is not an http(s) URL; provider %s needs one", g.URL, g.Provider)
		}
		if g.Provider == "openai" && g.Model == "" {
			bad("guard.model: provider openai needs the guard model's name (e.g. Qwen/Qwen3Guard-Gen-0.6B)")
		}
	default:
		bad("guard.provider: %q is not a known provider (rules, mosec, openai)", g.Provider)
	}
	if g.Timeout < 100*time.Millisecond || g.Timeout > 5*time.Minute {
		bad("guard.timeout: %s is outside 100ms..5m", g.Timeout)
	}
	return append(errs, g.Retry.validate("guard.retry")...)
}
