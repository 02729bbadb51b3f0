package config

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestMemoryIsOffByDefault(t *testing.T) {
	m := Default().Memory
	assert.False(t, m.Enabled)
	assert.Zero(t, m.TTL)
}

func TestMemoryTTLIsChecked(t *testing.T) {
	c := Default()
	c.Memory.TTL = -time.Second
	assert.ErrorContains(t, c.Validate(), "config: memory.ttl: -1s is outside 0..876000h0m0s")
	c.Memory.TTL = 24 * time.Hour
	assert.NoError(t, c.Validate())
}
