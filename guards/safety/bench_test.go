package safety

import (
	"context"
	"strings"
	"testing"
)

// BenchmarkClassify: one typical support message (about 150 characters).
func BenchmarkClassify(b *testing.B) {
	r, err := NewDefaultRules()
	if err != nil {
		b.Fatal(err)
	}
	msg := "Здравствуйте! После обновления не запускается интеграция с 1С, процесс падает с ошибкой. Как убить зависший процесс и перезапустить?"
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Classify(context.Background(), msg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkClassifyLong: a 4 KB message, the size of a long ticket.
func BenchmarkClassifyLong(b *testing.B) {
	r, err := NewDefaultRules()
	if err != nil {
		b.Fatal(err)
	}
	msg := strings.Repeat("The export job fails when the report has more than ten thousand rows; how do I kill it? ", 46)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Classify(context.Background(), msg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkClassifySpacedOut: 16,000 characters spaced out with single
// spaces, so every trigger is looked for inside one long run of letters.
func BenchmarkClassifySpacedOut(b *testing.B) {
	r, err := NewDefaultRules()
	if err != nil {
		b.Fatal(err)
	}
	msg := strings.Repeat("h o w d o i k i l l a h u n g p r o c e s s ", 364)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Classify(context.Background(), msg); err != nil {
			b.Fatal(err)
		}
	}
}
