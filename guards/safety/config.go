package safety

import (
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/sgrgraph/sgrgraph/outbound"
)

// Config is the guard section of the configuration: which classifier
// judges each request at the door, and how to reach a remote one.
type Config struct {
	// Enabled false skips the classifier: the turn's level is N/A, which
	// DT-001 lets through and DT-002 routes on the plan alone.
	Enabled bool `yaml:"enabled"`
	// Mode is enforce or report (DT-001).
	Mode string `yaml:"mode"`
	// Provider is rules (offline lexicon), mosec, or openai (a Qwen3Guard
	// model behind an OpenAI-compatible server).
	Provider string `yaml:"provider"`
	// Lexicon replaces the rules provider's embedded lexicon.
	Lexicon string `yaml:"lexicon"`
	// URL is the mosec endpoint, or the openai provider's base URL.
	URL     string          `yaml:"url"`
	Model   string          `yaml:"model"`
	APIKey  string          `yaml:"api_key"`
	Timeout time.Duration   `yaml:"timeout"`
	Retry   outbound.Policy `yaml:"retry"`
}

// Validate names each key outside its limits.
func (c Config) Validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if c.Mode != "enforce" && c.Mode != "report" {
		bad("mode: %q is not enforce or report", c.Mode)
	}
	switch c.Provider {
	case ProviderRules:
	case ProviderMosec, ProviderOpenAI:
		if u, err := url.Parse(c.URL); c.URL == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("url: %q is not an http(s) URL; provider %s needs one", c.URL, c.Provider)
		}
		if c.Provider == ProviderOpenAI && c.Model == "" {
			bad("model: provider openai needs the guard model's name (e.g. Qwen/Qwen3Guard-Gen-0.6B)")
		}
	default:
		bad("provider: %q is not a known provider (rules, mosec, openai)", c.Provider)
	}
	if c.Timeout < 100*time.Millisecond || c.Timeout > 5*time.Minute {
		bad("timeout: %s is outside 100ms..5m", c.Timeout)
	}
	if err := c.Retry.Validate(); err != nil {
		for _, e := range unjoin(err) {
			bad("retry.%v", e)
		}
	}
	return errors.Join(errs...)
}

// New makes the classifier the configuration names. A remote guard's
// client carries the guard's timeout and retry policy.
func New(c Config) (Classifier, error) {
	switch c.Provider {
	case ProviderMosec:
		return Mosec{Endpoint: c.URL, Client: outbound.Client("guard", c.Retry, nil, outbound.Timeouts{Call: c.Timeout})}, nil
	case ProviderOpenAI:
		return OpenAIGuard{BaseURL: c.URL, Model: c.Model, APIKey: c.APIKey,
			Client: outbound.Client("guard", c.Retry, nil, outbound.Timeouts{Call: c.Timeout})}, nil
	}
	if c.Lexicon != "" {
		r, err := NewRulesFromFile(c.Lexicon)
		if err != nil {
			return nil, fmt.Errorf("lexicon: %w", err)
		}
		return r, nil
	}
	return NewDefaultRules()
}

// unjoin lists the errors a Validate joined.
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}
