package offline

import (
	"slices"
	"strings"

	"github.com/sgrgraph/sgrgraph/templates"
)

// withoutProduct is titled as a question names its articles: each title's
// stems and brand (brandOf) without the product's name. "Configuring
// Jest" is named as "Configuring" is, so that a knowledge base whose
// titles repeat the product's name names the same article for a question
// as its copy whose titles do not: the name says which product, never
// which article. A neutral product ("this service") names nothing, and
// titled is returned as it is.
func withoutProduct(titled []found, product string) []found {
	if templates.IsNeutral(product) {
		return titled
	}
	name := titleStems(product)
	if len(name) == 0 {
		return titled
	}
	out := make([]found, len(titled))
	for i, t := range titled {
		t.titleStems = slices.DeleteFunc(slices.Clone(t.titleStems), func(s string) bool { return slices.Contains(name, s) })
		if t.brand != "" && strings.EqualFold(t.brand, product) {
			t.brand = ""
		}
		out[i] = t
	}
	return out
}

// readTitles gives each found article whose title is one of the knowledge
// base's its stems and brand as a question names it (e.titled).
func (e *Engine) readTitles(articles []found) {
	for i := range articles {
		if k, ok := e.reading.byTitle[articles[i].title]; ok && articles[i].titleStems == nil {
			articles[i].titleStems, articles[i].brand = e.titled[k].titleStems, e.titled[k].brand
		}
	}
}
