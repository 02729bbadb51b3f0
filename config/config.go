package config

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"gopkg.in/yaml.v3"
)

//go:embed defaults.yaml
var defaultsYAML []byte

// Config is the whole configuration.
type Config struct {
	Tables Tables `yaml:"tables"`
	Guard  Guard  `yaml:"guard"`
	KB     KB     `yaml:"kb"`
}

// Tables holds the thresholds the decision tables are built from.
type Tables struct {
	SpamThreshold       float64 `yaml:"spam_threshold"`
	ConfidenceThreshold float64 `yaml:"confidence_threshold"`
	MaxRetries          int     `yaml:"max_retries"`
}

// Guard configures the safety guard at the door.
type Guard struct {
	Mode     string `yaml:"mode"`
	Provider string `yaml:"provider"`
	Lexicon  string `yaml:"lexicon"`
}

// KB configures the knowledge base.
type KB struct {
	Dir                string  `yaml:"dir"`
	CacheDir           string  `yaml:"cache_dir"`
	TopK               int     `yaml:"top_k"`
	RelevanceThreshold float64 `yaml:"relevance_threshold"`
}

// Default returns the embedded defaults.
func Default() Config {
	var c Config
	if err := decode(defaultsYAML, "defaults.yaml", &c); err != nil {
		panic(err) // the embedded file is part of the binary; a test keeps it valid
	}
	return c
}

// Load lays the file at path (if path is not empty) over the defaults, then
// the environment read through lookup (nil: no environment), and validates.
func Load(path string, lookup func(string) (string, bool)) (Config, error) {
	c := Default()
	if path != "" {
		data, err := os.ReadFile(path)
		if err != nil {
			return Config{}, fmt.Errorf("config: %w", err)
		}
		if err := decode(data, path, &c); err != nil {
			return Config{}, err
		}
	}
	if lookup != nil {
		if err := applyEnv(&c, lookup); err != nil {
			return Config{}, err
		}
	}
	return c, c.Validate()
}

func decode(data []byte, name string, c *Config) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	// An empty file (io.EOF) changes nothing.
	if err := dec.Decode(c); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("config %s: %w", name, err)
	}
	return nil
}

// applyEnv reads SGRGRAPH_* variables; each names one key of the file.
func applyEnv(c *Config, lookup func(string) (string, bool)) error {
	str := map[string]*string{
		"SGRGRAPH_GUARD_MODE": &c.Guard.Mode, "SGRGRAPH_GUARD_PROVIDER": &c.Guard.Provider,
		"SGRGRAPH_GUARD_LEXICON": &c.Guard.Lexicon, "SGRGRAPH_KB_DIR": &c.KB.Dir, "SGRGRAPH_KB_CACHE_DIR": &c.KB.CacheDir,
	}
	for name, dst := range str {
		if v, ok := lookup(name); ok {
			*dst = v
		}
	}
	floats := map[string]*float64{
		"SGRGRAPH_SPAM_THRESHOLD": &c.Tables.SpamThreshold, "SGRGRAPH_CONFIDENCE_THRESHOLD": &c.Tables.ConfidenceThreshold,
	}
	for name, dst := range floats {
		if v, ok := lookup(name); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return fmt.Errorf("config: %s=%q is not a number", name, v)
			}
			*dst = f
		}
	}
	if v, ok := lookup("SGRGRAPH_MAX_RETRIES"); ok {
		n, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("config: SGRGRAPH_MAX_RETRIES=%q is not an integer", v)
		}
		c.Tables.MaxRetries = n
	}
	return nil
}

// Validate checks every value and names the key of each bad one.
func (c Config) Validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf("config: "+format, args...)) }
	unit := func(key string, v float64) {
		if v < 0 || v > 1 {
			bad("%s: %g is outside [0,1]", key, v)
		}
	}
	unit("tables.spam_threshold", c.Tables.SpamThreshold)
	unit("tables.confidence_threshold", c.Tables.ConfidenceThreshold)
	unit("kb.relevance_threshold", c.KB.RelevanceThreshold)
	if c.Tables.MaxRetries < 0 || c.Tables.MaxRetries > 10 {
		bad("tables.max_retries: %d is outside 0..10", c.Tables.MaxRetries)
	}
	if c.Guard.Mode != "enforce" && c.Guard.Mode != "report" {
		bad("guard.mode: %q is not enforce or report", c.Guard.Mode)
	}
	if c.Guard.Provider != "rules" {
		bad("guard.provider: %q is not a known provider (rules)", c.Guard.Provider)
	}
	if c.KB.TopK < 1 || c.KB.TopK > 50 {
		bad("kb.top_k: %d is outside 1..50", c.KB.TopK)
	}
	return errors.Join(errs...)
}
