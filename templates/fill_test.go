package templates

import (
	"strings"
	"testing"
)

// FuzzFill: placeholders are filled as a strings.Replacer of the
// "{name}" strings fills them.
func FuzzFill(f *testing.F) {
	for _, s := range []string{"", "plain", "{product} and {user_intent}", "{{product}}", "{unknown} {product", "}{product}{",
		"{}", "{product}{product}", "ё{product}ж"} {
		f.Add(s, "sgrgraph", "configure {the} guard")
	}
	f.Fuzz(func(t *testing.T, text, product, intent string) {
		vars := map[string]string{"product": product, "user_intent": intent, "": "empty"}
		var pairs []string
		for k, v := range vars {
			pairs = append(pairs, "{"+k+"}", v)
		}
		if want, got := strings.NewReplacer(pairs...).Replace(text), fill(text, vars); got != want {
			t.Fatalf("fill(%q) = %q, want %q", text, got, want)
		}
	})
}
