package safety

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/outbound"
)

func TestConfig(t *testing.T) {
	base := Config{Mode: "enforce", Provider: ProviderRules, Timeout: time.Second, Retry: outbound.DefaultPolicy()}
	for _, tc := range []struct {
		name  string
		edit  func(*Config)
		want  string // a Validate error, "" when valid
		isA   Classifier
		build string // a New error
	}{
		{"rules", func(*Config) {}, "", &Rules{}, ""},
		{"mosec", func(c *Config) { c.Provider, c.URL = ProviderMosec, "http://127.0.0.1:7998/v1/moderate" }, "", Mosec{}, ""},
		{"openai", func(c *Config) { c.Provider, c.URL, c.Model = ProviderOpenAI, "http://127.0.0.1:1/v1", "g" }, "", OpenAIGuard{}, ""},
		{"mode", func(c *Config) { c.Mode = "x" }, `mode: "x" is not enforce or report`, nil, ""},
		{"remote without a URL", func(c *Config) { c.Provider = ProviderMosec }, `url: "" is not an http(s) URL; provider mosec needs one`, nil, ""},
		{"openai without a model", func(c *Config) { c.Provider, c.URL = ProviderOpenAI, "http://h/v1" }, "model: provider openai needs", nil, ""},
		{"retry", func(c *Config) { c.Retry.Attempts = 11 }, "retry.attempts: 11 is outside 1..10", nil, ""},
		{"missing lexicon", func(c *Config) { c.Lexicon = "/nonexistent/lexicon.yaml" }, "", nil, "lexicon:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := base
			tc.edit(&c)
			err := c.Validate()
			if tc.want != "" {
				assert.ErrorContains(t, err, tc.want)
				return
			}
			require.NoError(t, err)
			got, err := New(c)
			if tc.build != "" {
				assert.ErrorContains(t, err, tc.build)
				return
			}
			require.NoError(t, err)
			assert.IsType(t, tc.isA, got)
		})
	}
}
