package templates

import (
	_ "embed"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// uiLabels are the labels of the web chat, the command line's footer and
// the batch table's columns: the same language → key → text shape as the
// catalogue, kept in a file of their own so that a configured catalogue,
// which replaces catalogue.yaml whole, need not carry them.
//
//go:embed ui.yaml
var uiLabels []byte

// UILabels is the label catalogue (ui.yaml): every language has
// the same keys and, in each text, the same {placeholders}, so a page that
// switches language never meets a missing label. It is read once per
// process and shared: callers read it and never change it.
func UILabels() (Catalogue, error) { return embeddedLabels() }

// embeddedLabels parses ui.yaml on first use only: every agent, template
// set and batch run reads the same labels, and parsing them costs a
// millisecond.
var embeddedLabels = sync.OnceValues(func() (Catalogue, error) { return parseUILabels(uiLabels) })

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

// Label is the label key in lang with {name} placeholders filled from
// vars; a language the labels lack falls back to English, so an answer in
// a language of a configured catalogue still gets labels.
func (c Catalogue) Label(lang, key string, vars map[string]string) string {
	texts, ok := c[lang]
	if !ok {
		texts = c["en"]
	}
	return fill(texts[key], vars)
}

// Count is the plural form of key (key_one, key_few or key_many) for n in
// lang, with {count} filled in.
func (c Catalogue) Count(lang, key string, n int) string {
	return c.Label(lang, key+"_"+pluralForm(lang, n), map[string]string{"count": strconv.Itoa(n)})
}

// pluralForm is CLDR's cardinal category of n: Russian tells one (1, 21,
// 31…), few (2-4, 22-24…) and many (the rest); other languages one and
// many.
func pluralForm(lang string, n int) string {
	if lang != "ru" {
		if n == 1 {
			return "one"
		}
		return "many"
	}
	switch n10, n100 := n%10, n%100; {
	case n10 == 1 && n100 != 11:
		return "one"
	case n10 >= 2 && n10 <= 4 && (n100 < 12 || n100 > 14):
		return "few"
	}
	return "many"
}
