package templates

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The web chat's labels (seed 003 §11: "use localization engine here for
// any new labels") come in ru and en, with the same keys.
func TestUILabels(t *testing.T) {
	cat, err := UILabels()
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"en", "ru"}, mapKeys(cat))
	assert.Equal(t, "Analysis Summary", cat["en"]["analysis_heading"], "seed 003 §11's accordion title")
	assert.Equal(t, "Retrieved Articles ({count})", cat["en"]["articles_heading"])
	assert.Equal(t, "Отправить", cat["ru"]["send"])
}

func TestUILabelsShape(t *testing.T) {
	tests := []struct {
		name string
		yaml string // the labels file
		want string // the error, "" for none
	}{
		{"same keys and placeholders", "en: {a: 'x {n}'}\nru: {a: 'y {n}'}\n", ""},
		{"a key missing in one language", "en: {a: x, b: y}\nru: {a: x}\n", "ru.b: missing"},
		{"a key only in one language", "en: {a: x}\nru: {a: x, c: z}\n", "ru.c: not in en"},
		{"a blank text", "en: {a: ' '}\nru: {a: x}\n", "en.a: blank"},
		{"a placeholder lost in translation", "en: {a: '{count} rows'}\nru: {a: 'строки'}\n", "ru.a: placeholders [], but en has [{count}]"},
		{"no languages", "", "no languages"},
		{"not YAML", "en: [", "ui labels: yaml"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseUILabels([]byte(tc.yaml))
			if tc.want == "" {
				assert.NoError(t, err)
				return
			}
			assert.ErrorContains(t, err, tc.want)
		})
	}
}

func mapKeys(c Catalogue) []string {
	out := make([]string, 0, len(c))
	for k := range c {
		out = append(out, k)
	}
	return out
}

func TestLabelCounts(t *testing.T) {
	cat, err := UILabels()
	require.NoError(t, err)
	tests := []struct {
		lang string
		n    int
		want string
	}{
		{"en", 1, "1 source"}, {"en", 0, "0 sources"}, {"en", 6, "6 sources"},
		{"ru", 1, "1 источник"}, {"ru", 21, "21 источник"}, {"ru", 3, "3 источника"}, {"ru", 24, "24 источника"},
		{"ru", 5, "5 источников"}, {"ru", 11, "11 источников"}, {"ru", 12, "12 источников"}, {"ru", 0, "0 источников"},
		{"de", 2, "2 sources"}, // a language without labels reads English
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, cat.Count(tc.lang, "footer_sources", tc.n), "%s %d", tc.lang, tc.n)
	}
	assert.Equal(t, "Запрос 2: режим", cat.Label("ru", "batch_query", map[string]string{"n": "2", "query": "режим"}))
}
