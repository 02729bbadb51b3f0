package offline

import (
	"io/fs"
	"testing"

	"github.com/sgrgraph/sgrgraph/docs"
)

// BenchmarkTopicModel is the off-topic score's reading of a knowledge base,
// done once when the engine starts: on every `sgrgraph ask`, over the
// embedded documentation.
func BenchmarkTopicModel(b *testing.B) {
	var corpus []string
	err := fs.WalkDir(docs.FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(docs.FS, path)
		corpus = append(corpus, string(data))
		return err
	})
	if err != nil || len(corpus) == 0 {
		b.Fatalf("the embedded documentation: %v, %d articles", err, len(corpus))
	}
	b.ReportAllocs()
	for b.Loop() {
		newTopicModel(corpus)
	}
}
