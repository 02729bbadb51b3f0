package templates

// The neutral wording for a product nobody named ("contact this service's
// support"), by language: the one place it is written. A product's name is
// the same in every language, but the neutral wording is not, and a turn
// answers in the language of the request, not the configured one.
var neutralProducts = map[string]string{
	"en": "this service",
	"ru": "этого сервиса", // the genitive, as every Russian text puts {product}
}

// NeutralProduct is the wording that stands for an unnamed product in
// lang; English for a language that has none.
func NeutralProduct(lang string) string {
	if p, ok := neutralProducts[lang]; ok {
		return p
	}
	return neutralProducts["en"]
}

// ProductIn is product as a text in lang names it: the neutral wording of
// any language becomes lang's, a product's name stays as it is.
func ProductIn(product, lang string) string {
	if IsNeutral(product) {
		return NeutralProduct(lang)
	}
	return product
}

// IsNeutral reports whether product is the neutral wording of some
// language, which names no product.
func IsNeutral(product string) bool {
	for _, p := range neutralProducts {
		if product == p {
			return true
		}
	}
	return false
}
