package kb

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// benchDocs generates n articles of four sections each from a mixed
// Russian and English vocabulary, deterministically.
func benchDocs(n int) []Doc {
	words := strings.Fields(`graph node edge table rule guard verdict retry evidence contract plan search index
		chunk article query stream token model tool agent policy safety level category answer source
		граф узел ребро таблица правило проверка вердикт повтор свидетельство контракт план поиск индекс
		статья запрос поток модель инструмент агент политика безопасность уровень категория ответ источник`)
	r := rand.New(rand.NewPCG(1, 2))
	sentence := func(k int) string {
		s := make([]string, k)
		for i := range s {
			s[i] = words[r.IntN(len(words))]
		}
		return strings.Join(s, " ") + "."
	}
	docs := make([]Doc, n)
	for i := range docs {
		var b strings.Builder
		fmt.Fprintf(&b, "# Article %d %s\n\n", i, sentence(3))
		for s := 0; s < 4; s++ {
			fmt.Fprintf(&b, "## Section %d %s\n\n", s, sentence(2))
			for p := 0; p < 3; p++ {
				b.WriteString(sentence(25) + " " + sentence(25) + "\n\n")
			}
		}
		body := b.String()
		docs[i] = Doc{Path: fmt.Sprintf("a%03d.md", i), KBID: fmt.Sprintf("a%03d", i), Title: fmt.Sprintf("Article %d", i),
			Body: body, Hash: fmt.Sprint(i)}
	}
	return docs
}

// BenchmarkSearch: one query over 300 articles (about 1,200 chunks).
func BenchmarkSearch(b *testing.B) {
	idx, err := Open(b.TempDir(), DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	defer idx.Close()
	if _, err := idx.Sync(benchDocs(300)); err != nil {
		b.Fatal(err)
	}
	queries := []string{"guard verdict retry", "поиск статьи по запросу", "evidence contract политика", "agent tool stream"}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		res, err := idx.Search(queries[i%len(queries)], 5)
		if err != nil || len(res.Articles) == 0 {
			b.Fatalf("search: %v, %d articles", err, len(res.Articles))
		}
	}
}

// BenchmarkSync: indexing 300 articles from scratch.
func BenchmarkSync(b *testing.B) {
	docs := benchDocs(300)
	b.ReportAllocs()
	for b.Loop() {
		idx, err := Open(b.TempDir(), DefaultOptions())
		if err != nil {
			b.Fatal(err)
		}
		if _, err := idx.Sync(docs); err != nil {
			b.Fatal(err)
		}
		idx.Close()
	}
}

// BenchmarkFirstSearch is what one `sgrgraph ask` does with the index once
// it is built: open the published generation, find it up to date, and run
// the process's first search, which reads every chunk it hits for the
// first time.
func BenchmarkFirstSearch(b *testing.B) {
	docs, errs := LoadDir("../docs")
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	dir := b.TempDir()
	build, err := Open(dir, DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	if _, err := build.Sync(docs); err != nil {
		b.Fatal(err)
	}
	build.Close()
	b.ReportAllocs()
	for b.Loop() {
		idx, err := Open(dir, DefaultOptions())
		if err != nil {
			b.Fatal(err)
		}
		if _, err := idx.Sync(docs); err != nil {
			b.Fatal(err)
		}
		res, err := idx.Search("configure the safety guard", 5)
		if err != nil || len(res.Articles) == 0 {
			b.Fatalf("search: %v, %d articles", err, len(res.Articles))
		}
		idx.Close()
	}
}
