package models

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/outbound"
)

func TestConfigValidate(t *testing.T) {
	ok := Config{Provider: "openai", Timeout: time.Minute, ConnectTimeout: 5 * time.Second, IdleTimeout: 30 * time.Second, Endpoint: Endpoint{Name: "m"}, Retry: outbound.DefaultPolicy()}
	hot := 3.0
	for _, tc := range []struct {
		name string
		edit func(*Config)
		want string // "" when valid
	}{
		{"valid", func(*Config) {}, ""},
		{"unknown provider", func(c *Config) { c.Provider = "x" }, `provider: "x" is not a known provider`},
		{"timeout", func(c *Config) { c.Timeout = time.Millisecond }, "timeout: 1ms is outside 1s..10m"},
		{"connect timeout", func(c *Config) { c.ConnectTimeout = 0 }, "connect_timeout: 0s is outside 100ms..1m"},
		{"idle timeout", func(c *Config) { c.IdleTimeout = time.Hour }, "idle_timeout: 1h0m0s is outside 1s..10m"},
		{"retry", func(c *Config) { c.Retry.Attempts = 0 }, "retry.attempts: 0 is outside 1..10"},
		{"no name", func(c *Config) { c.Name = "" }, "name: provider openai needs the model's name"},
		{"a role's own fault names the role", func(c *Config) { c.SGR.Temperature = &hot }, "sgr.temperature: 3 is outside 0..2"},
		{"offline needs no name", func(c *Config) { c.Provider, c.Name = "offline", "" }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := ok
			tc.edit(&c)
			err := c.Validate()
			if tc.want == "" {
				require.NoError(t, err)
				return
			}
			assert.ErrorContains(t, err, tc.want)
		})
	}
}

func TestConfigFor(t *testing.T) {
	c := Config{Endpoint: Endpoint{BaseURL: "http://a/v1", Name: "big"}, SGR: Endpoint{Name: "small"}}
	assert.Equal(t, Endpoint{BaseURL: "http://a/v1", Name: "small"}, c.For("sgr"), "a role's own fields win")
	assert.Equal(t, Endpoint{BaseURL: "http://a/v1", Name: "big"}, c.For("agent"), "the rest comes from the model")
}
