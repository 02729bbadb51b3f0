package checkpoint

import (
	"errors"
	"fmt"
	"time"
)

// Config is the threads section of the configuration: where conversations
// are kept, and how much of each thread's history stays.
type Config struct {
	// Store is a postgres:// or redis:// URL, or a SQLite file; empty: the
	// SQLite file under the user cache directory.
	Store string `yaml:"store"`
	// KeepLast and MaxAge are the retention a thread gets after each turn
	// (and `sgrgraph threads prune` by default); 0 keeps all.
	KeepLast int           `yaml:"keep_last"`
	MaxAge   time.Duration `yaml:"max_age"`
}

// Retention is the configured retention.
func (c Config) Retention() Retention { return Retention{KeepLast: c.KeepLast, MaxAge: c.MaxAge} }

// Validate names each key outside its limits.
func (c Config) Validate() error {
	var errs []error
	if c.KeepLast < 0 || c.KeepLast > 1_000_000 {
		errs = append(errs, fmt.Errorf("keep_last: %d is outside 0..1000000", c.KeepLast))
	}
	if c.MaxAge < 0 {
		errs = append(errs, fmt.Errorf("max_age: %s must not be negative", c.MaxAge))
	}
	if c.MaxAge > 0 && c.MaxAge < time.Minute {
		errs = append(errs, fmt.Errorf("max_age: %s is under a minute; a conversation would vanish while it runs", c.MaxAge))
	}
	return errors.Join(errs...)
}
