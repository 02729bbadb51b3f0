package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"

	"github.com/sgrgraph/sgrgraph/config"
)

// productOf is the product a turn's texts name. A product the
// configuration sets (product, SGRGRAPH_PRODUCT) is kept; the default one,
// sgrgraph, names only the embedded documentation: a knowledge base
// folder of another domain names its own, from the "product:" (else
// "title:") front matter or the first "# " heading of its index.md or
// README.md, else from the folder's name.
func productOf(cfg config.Config) string {
	if cfg.KB.Dir == "" || cfg.Product != config.Default().Product {
		return cfg.Product
	}
	for _, name := range []string{"index.md", "README.md", "readme.md"} {
		if p := productInFile(filepath.Join(cfg.KB.Dir, name)); p != "" {
			return p
		}
	}
	abs, err := filepath.Abs(cfg.KB.Dir)
	if err != nil {
		return cfg.Product
	}
	name := strings.Join(strings.FieldsFunc(filepath.Base(abs), func(r rune) bool { return r == '-' || r == '_' || r == '.' }), " ")
	if name == "" || name == string(filepath.Separator) {
		return cfg.Product
	}
	return name
}

// productInFile reads the product from an article's front matter or its
// first heading; "" when the file has neither or cannot be read.
func productInFile(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	title := ""
	for n, inFront := 0, false; sc.Scan() && n < 200; n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case n == 0 && line == "---":
			inFront = true
		case inFront && line == "---":
			inFront = false
		case inFront:
			key, value, ok := strings.Cut(line, ":")
			value = strings.Trim(strings.TrimSpace(value), `"'`)
			if ok && strings.TrimSpace(key) == "product" && value != "" {
				return value
			}
			if ok && strings.TrimSpace(key) == "title" && title == "" {
				title = value
			}
		case title == "" && strings.HasPrefix(line, "# "):
			title = strings.TrimSpace(line[2:])
		}
	}
	return title
}
