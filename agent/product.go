package agent

import (
	"bufio"
	"cmp"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/lang/ru"

	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/kb"
	"github.com/sgrgraph/sgrgraph/templates"
)

// ProductOf is the product a turn's texts name. A product the
// configuration sets (product, SGRGRAPH_PRODUCT) is kept; the default one,
// sgrgraph, names only the embedded documentation. A knowledge base of
// another domain names its own: the "product:" front matter its articles
// give, else the word its titles share (see titleProduct), else a neutral
// wording. The folder's name is never used: it says where the files were
// put, and a refusal that says "contact kb-export support" is wrong.
// New names the product so; a configuration whose product is set keeps it.
func ProductOf(cfg config.Config) string {
	if cfg.KB.Dir == "" || cfg.Product != config.Default().Product {
		return cfg.Product
	}
	heads := readHeads(cfg.KB.Dir)
	if p := frontMatterProduct(heads); p != "" {
		return p
	}
	if p := titleProduct(heads); p != "" {
		return p
	}
	return templates.NeutralProduct(cfg.Language) // a text in another language says its own (templates.ProductIn)
}

// articleHead is what naming the product reads of an article: its
// front matter's product and title (else its first heading), and the
// words of its text.
type articleHead struct {
	product, title string
	words          map[string]bool
}

// Bounds of the scan: a knowledge base is read once at start-up, and one
// with more files than this says as much about its product in its first
// ones.
const (
	maxHeadFiles = 2000
	maxHeadLines = 400
)

// readHeads reads the Markdown articles under dir, the folders the
// knowledge base leaves out left out (kb.SkipsFolder); a file that cannot
// be read is skipped (the knowledge base's loader reports it).
func readHeads(dir string) []articleHead {
	var heads []articleHead
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && path != dir && kb.SkipsFolder(d.Name()) {
			return filepath.SkipDir
		}
		if d.IsDir() || !kb.IsArticle(path) {
			return nil
		}
		if h, ok := readHead(path); ok {
			heads = append(heads, h)
		}
		if len(heads) >= maxHeadFiles {
			return filepath.SkipAll
		}
		return nil
	})
	return heads
}

func readHead(path string) (articleHead, bool) {
	f, err := os.Open(path)
	if err != nil {
		return articleHead{}, false
	}
	defer f.Close()
	h := articleHead{words: map[string]bool{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for n, inFront := 0, false; sc.Scan() && n < maxHeadLines; n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case n == 0 && line == "---":
			inFront = true
		case inFront && line == "---":
			inFront = false
		case inFront:
			key, value, ok := strings.Cut(line, ":")
			value = strings.Trim(strings.TrimSpace(value), `"'`)
			switch strings.TrimSpace(key) {
			case "product":
				if ok && h.product == "" {
					h.product = value
				}
			case "title":
				if ok && h.title == "" {
					h.title = value
				}
			}
		case strings.HasPrefix(line, "#"):
			if h.title == "" && strings.HasPrefix(line, "# ") {
				h.title = strings.TrimSpace(line[2:])
			}
		default:
			for _, w := range wordsOf(line) {
				h.words[strings.ToLower(w)] = true
			}
		}
	}
	return h, true
}

// frontMatterProduct is the product the most articles name in their front
// matter; "" when none does.
func frontMatterProduct(heads []articleHead) string {
	count := map[string]int{}
	for _, h := range heads {
		if h.product != "" {
			count[h.product]++
		}
	}
	return mostCounted(count)
}

// titleProduct is the word the articles' titles share that names the
// product: a word of at least two titles, no stop word, said in the text
// of nearly every article (a product's documentation names it throughout:
// "etcd", "Cargo", "Helm" are said in 95% or more of their articles; a kind
// of goods, "hiking", in 70% of a shop's manuals), and not the word nearly
// all its titles end with, which names a kind of page ("Card Services
// Policy", "Address Update Policy"; "Prometheus" ends 6 of its 11). Of several, the one in the most titles; its
// most frequent spelling is kept. Fewer than three articles name nothing.
func titleProduct(heads []articleHead) string {
	if len(heads) < 3 {
		return ""
	}
	stops := stopWords()
	titles, last := map[string]int{}, map[string]int{}
	spellings := map[string]map[string]int{}
	for _, h := range heads {
		seen := map[string]bool{}
		words := wordsOf(h.title)
		if len(words) > 1 {
			last[strings.ToLower(words[len(words)-1])]++
		}
		for _, w := range words {
			lw := strings.ToLower(w)
			if seen[lw] || stops[lw] || strings.IndexFunc(lw, unicode.IsLetter) < 0 {
				continue
			}
			seen[lw] = true
			titles[lw]++
			if spellings[lw] == nil {
				spellings[lw] = map[string]int{}
			}
			spellings[lw][w]++
		}
	}
	best, bestTitles := "", 0
	for w, n := range titles {
		if n < 2 || 5*last[w] >= 4*n || n < bestTitles || n == bestTitles && w > best {
			continue
		}
		said := 0
		for _, h := range heads {
			if h.words[w] {
				said++
			}
		}
		if float64(said) >= saidShare*float64(len(heads)) {
			best, bestTitles = w, n
		}
	}
	if best == "" {
		return ""
	}
	return mostCounted(spellings[best])
}

// saidShare is the share of articles whose text must say the product's
// word.
const saidShare = 0.9

// mostCounted is the key counted most, the first in order on a tie.
func mostCounted(count map[string]int) string {
	keys := make([]string, 0, len(count))
	for k := range count {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int { return cmp.Or(cmp.Compare(count[b], count[a]), strings.Compare(a, b)) })
	if len(keys) == 0 {
		return ""
	}
	return keys[0]
}

func wordsOf(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// stopWords are the English and Russian stop words (bleve's lists, which
// the knowledge base's analyzers drop too): one word a line, "|" comments.
func stopWords() map[string]bool {
	set := map[string]bool{}
	for _, list := range [][]byte{en.EnglishStopWords, ru.RussianStopWords} {
		for _, line := range strings.Split(string(list), "\n") {
			if w, _, _ := strings.Cut(line, "|"); strings.TrimSpace(w) != "" {
				set[strings.TrimSpace(w)] = true
			}
		}
	}
	return set
}
