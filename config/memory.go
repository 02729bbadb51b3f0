package config

import (
	"errors"
	"fmt"
	"time"
)

// Memory is the default turn's long-term memory: a user's stated
// preferences (the answer language, the product they use), kept per user
// across threads (docs/agents.md, "Memory in the default turn").
type Memory struct {
	// Enabled keeps and uses the preferences; off by default, when a turn
	// neither reads nor writes any memory.
	Enabled bool `yaml:"enabled"`
	// Store is where: a postgres:// or redis:// URL, or a SQLite file;
	// empty: memory.db under the user cache directory.
	Store string `yaml:"store"`
	// TTL forgets a preference this long after it was last stated; 0
	// keeps it.
	TTL time.Duration `yaml:"ttl"`
}

// maxMemoryTTL is the memory stores' longest TTL (memory.MaxTTL).
const maxMemoryTTL = 100 * 365 * 24 * time.Hour

// Validate checks the memory settings.
func (m Memory) Validate() error {
	var errs []error
	if m.TTL < 0 || m.TTL > maxMemoryTTL {
		errs = append(errs, fmt.Errorf("ttl: %s is outside 0..%s", m.TTL, maxMemoryTTL))
	}
	return errors.Join(errs...)
}
