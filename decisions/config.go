package decisions

import (
	"errors"
	"fmt"
)

// Config holds the thresholds the standard tables are built from: the
// tables section of the configuration file.
type Config struct {
	// SpamThreshold: a spam_score at or above it blocks (DT-002).
	SpamThreshold float64 `json:"spam_threshold" yaml:"spam_threshold"`
	// ConfidenceThreshold: an intent_confidence below it asks for clarification (DT-002).
	ConfidenceThreshold float64 `json:"confidence_threshold" yaml:"confidence_threshold"`
	// MaxRetries: RETRY verdicts allowed before a failed check is FAIL (DT-005).
	MaxRetries int `json:"max_retries" yaml:"max_retries"`
	// Dir holds tables edited outside the program (.dmn files from a DMN
	// modeler, or the JSON of `sgrgraph tables --json`) that replace the
	// standard tables of the same ID; empty keeps the standard ones.
	Dir string `json:"dir,omitempty" yaml:"dir"`
}

// DefaultConfig returns the thresholds of seed 000 and seed 004.
func DefaultConfig() Config {
	return Config{SpamThreshold: 0.7, ConfidenceThreshold: 0.6, MaxRetries: 2}
}

// Validate names each field outside its limits.
func (c Config) Validate() error {
	var errs []error
	if c.SpamThreshold < 0 || c.SpamThreshold > 1 {
		errs = append(errs, fmt.Errorf("spam_threshold: %g is outside [0,1]", c.SpamThreshold))
	}
	if c.ConfidenceThreshold < 0 || c.ConfidenceThreshold > 1 {
		errs = append(errs, fmt.Errorf("confidence_threshold: %g is outside [0,1]", c.ConfidenceThreshold))
	}
	if c.MaxRetries < 0 || c.MaxRetries > 10 {
		errs = append(errs, fmt.Errorf("max_retries: %d is outside 0..10", c.MaxRetries))
	}
	return errors.Join(errs...)
}
