package kb

import (
	"errors"
	"fmt"
)

// Config is the knowledge base's section of the configuration file.
type Config struct {
	// Dir is the folder of Markdown articles; empty answers from the
	// embedded documentation.
	Dir string `yaml:"dir"`
	// CacheDir holds the index; empty puts it under the user's cache folder.
	CacheDir string `yaml:"cache_dir"`
	// TopK is how many articles one search returns.
	TopK int `yaml:"top_k"`
	// RelevanceThreshold is the score below which a search is not likely relevant.
	RelevanceThreshold float64 `yaml:"relevance_threshold"`
	// FollowExternalLinks indexes files reached through symbolic links
	// that point out of the folder; off, such links are skipped.
	FollowExternalLinks bool `yaml:"follow_external_links"`
	// Language is the language the articles are written in, which search
	// queries are written in whatever the user's language: auto (found
	// from the articles; none when they mix languages), ru or en.
	Language string `yaml:"language"`
}

// Validate names each field outside its limits.
func (c Config) Validate() error {
	var errs []error
	if c.RelevanceThreshold < 0 || c.RelevanceThreshold > 1 {
		errs = append(errs, fmt.Errorf("relevance_threshold: %g is outside [0,1]", c.RelevanceThreshold))
	}
	switch c.Language {
	case "", "auto", "ru", "en":
	default:
		errs = append(errs, fmt.Errorf("language: %q is not auto, ru or en", c.Language))
	}
	if c.TopK < 1 || c.TopK > 50 {
		errs = append(errs, fmt.Errorf("top_k: %d is outside 1..50", c.TopK))
	}
	return errors.Join(errs...)
}
