package templates

import (
	_ "embed"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// uiLabels are the web chat's labels: the same language → key → text shape
// as the catalogue, kept in a file of their own so that a configured
// catalogue, which replaces catalogue.yaml whole, need not carry them.
//
//go:embed ui.yaml
var uiLabels []byte

// UILabels is the web chat's label catalogue (ui.yaml): every language has
// the same keys and, in each text, the same {placeholders}, so a page that
// switches language never meets a missing label.
func UILabels() (Catalogue, error) { return parseUILabels(uiLabels) }

func parseUILabels(data []byte) (Catalogue, error) {
	var cat Catalogue
	if err := yaml.Unmarshal(data, &cat); err != nil {
		return nil, fmt.Errorf("ui labels: %w", err)
	}
	if err := cat.sameShape(); err != nil {
		return nil, fmt.Errorf("ui labels: %w", err)
	}
	return cat, nil
}

var placeholder = regexp.MustCompile(`\{[a-z_]+\}`)

// sameShape checks that every language has the keys of the first one (in
// sorted order), no blank text, and the same placeholders in each text.
func (c Catalogue) sameShape() error {
	langs := make([]string, 0, len(c))
	for l := range c {
		langs = append(langs, l)
	}
	if len(langs) == 0 {
		return errors.New("no languages")
	}
	slices.Sort(langs)
	base := c[langs[0]]
	var errs []error
	for _, l := range langs {
		for k, text := range c[l] {
			if strings.TrimSpace(text) == "" {
				errs = append(errs, fmt.Errorf("%s.%s: blank", l, k))
			}
			if _, ok := base[k]; !ok {
				errs = append(errs, fmt.Errorf("%s.%s: not in %s", l, k, langs[0]))
			}
		}
		for k, text := range base {
			other, ok := c[l][k]
			switch {
			case !ok:
				errs = append(errs, fmt.Errorf("%s.%s: missing", l, k))
			case !slices.Equal(placeholders(text), placeholders(other)):
				errs = append(errs, fmt.Errorf("%s.%s: placeholders %v, but %s has %v", l, k, placeholders(other), langs[0], placeholders(text)))
			}
		}
	}
	slices.SortFunc(errs, func(a, b error) int { return strings.Compare(a.Error(), b.Error()) })
	return errors.Join(errs...)
}

func placeholders(text string) []string {
	p := placeholder.FindAllString(text, -1)
	slices.Sort(p)
	return slices.Compact(p)
}
