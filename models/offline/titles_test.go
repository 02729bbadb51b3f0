package offline

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestTitlesNameNoArticleByTheProductsName: a knowledge base whose titles
// repeat its product's name ("Configuring Acme") names the same article
// for a question as its copy whose titles do not ("Configuring").
func TestTitlesNameNoArticleByTheProductsName(t *testing.T) {
	titles := []string{"Configuring Acme", "Acme presets and profiles", "Installing Acme", "Upgrading", "Acme CozyNights mode",
		"Backups", "Logs", "Plugins", "Troubleshooting Acme", "Acme"}
	kb := func(withName bool, product string) *Engine {
		var corpus []string
		for i, title := range titles {
			if !withName {
				title = strings.TrimSpace(strings.ReplaceAll(title, "Acme", ""))
			}
			corpus = append(corpus, fmt.Sprintf("%s\n\nPart %d of the Acme guide.", title, i))
		}
		return New(Options{Corpus: corpus, Product: product})
	}
	named, unnamed := kb(true, "Acme"), kb(false, "")
	for _, q := range []string{"How do I configure Acme?", "How do presets and profiles work in Acme?",
		"How do I turn on the CozyNights mode?", "How do I install Acme?", "What is Acme?", "Why does Acme crash?"} {
		content := contentWords(q)
		assert.Equal(t, unnamed.namedTitle(content), strings.TrimSpace(strings.ReplaceAll(named.namedTitle(content), "Acme", "")), q)
	}
	assert.Empty(t, named.namedTitle(contentWords("How do I configure Acme?")), "one word of the title besides the name: a kind of thing, not the thing")
	assert.Equal(t, "Acme presets and profiles", named.namedTitle(contentWords("How do presets and profiles work in Acme?")))
	assert.Equal(t, "Acme CozyNights mode", named.namedTitle(contentWords("How do I turn on the CozyNights mode?")), "a made-up name still names its title")

	neutral := kb(true, "")
	assert.Equal(t, "Configuring Acme", neutral.namedTitle(contentWords("How do I configure Acme?")),
		"with no product named, a title's words are all its own")
}

func TestWithoutProduct(t *testing.T) {
	titled := []found{{title: "Acme Cloud", titleStems: titleStems("Acme Cloud"), brand: ""},
		{title: "AcmeCloud sign-in", titleStems: titleStems("AcmeCloud sign-in"), brand: brandOf("AcmeCloud sign-in")}}
	for _, tc := range []struct {
		product    string
		wantStems  [][]string
		wantBrands []string
	}{
		{"Acme", [][]string{titleStems("Cloud"), titleStems("AcmeCloud sign-in")}, []string{"", "acmecloud"}},
		{"AcmeCloud", [][]string{titleStems("Acme Cloud"), titleStems("sign-in")}, []string{"", ""}},
		{"this service", [][]string{titleStems("Acme Cloud"), titleStems("AcmeCloud sign-in")}, []string{"", "acmecloud"}},
		{"этого сервиса", [][]string{titleStems("Acme Cloud"), titleStems("AcmeCloud sign-in")}, []string{"", "acmecloud"}},
	} {
		t.Run(tc.product, func(t *testing.T) {
			got := withoutProduct(titled, tc.product)
			for i := range got {
				assert.Equal(t, tc.wantStems[i], got[i].titleStems)
				assert.Equal(t, tc.wantBrands[i], got[i].brand)
			}
			assert.Equal(t, titleStems("Acme Cloud"), titled[0].titleStems, "the Reading's titles are shared: left as they are")
		})
	}
}
