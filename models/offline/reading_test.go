package offline

import (
	"reflect"
	"testing"
)

// An engine over a corpus read before (Options.Reading) is the engine over
// the corpus, whatever the other options; one Reading serves many engines.
func TestEngineOverAReading(t *testing.T) {
	corpus := []string{"Orders and refunds\nHow to buy, pay for a purchase and get a refund of an order. " +
		"A refund of a purchase you bought is paid in a week; to buy again, order again.",
		"Настройка фильтра\nФильтр безопасности проверяет каждый запрос. Настройка в файле.",
		"A sentence that is not a title. It has a full stop\nand more text"}
	r := Read(corpus)
	for _, o := range []Options{{}, {KBLanguage: "ru", Product: "the shop", Language: "ru"}, {KBLanguage: "en"}, {KBLanguage: "auto"}} {
		want := New(Options{Corpus: corpus, Product: o.Product, Language: o.Language, KBLanguage: o.KBLanguage})
		o.Reading = r
		got := New(o)
		if !reflect.DeepEqual(got.titled, want.titled) || !reflect.DeepEqual(got.topics, want.topics) ||
			got.kbLang != want.kbLang || got.sells != want.sells || got.product != want.product || got.fallback != want.fallback {
			t.Errorf("%+v: engine over the reading differs from the one over the corpus", o)
		}
	}
	if !New(Options{Reading: r}).sells || New(Options{Reading: r}).titled[2].title != "" {
		t.Error("the reading lost what the corpus says: sells, or the title that is a sentence")
	}
}
