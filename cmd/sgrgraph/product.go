package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/sgrgraph/sgrgraph/config"
)

// productOf is the product a turn's texts name. A product the
// configuration sets (product, SGRGRAPH_PRODUCT) is kept; the default one,
// sgrgraph, names only the embedded documentation: a knowledge base
// folder of another domain names its own, from the "product:" (else
// "title:") front matter or the first "# " heading of its index.md or
// README.md, else from the folder's name (see folderProduct).
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
	if name := folderProduct(abs); name != "" {
		return name
	}
	return cfg.Product
}

// folderProduct names the product by the knowledge base's folder, or by
// the folder it is in when its own name only says it holds documents: the
// docs of a project's checkout (rclone/docs) are about rclone, not "docs".
func folderProduct(dir string) string {
	name := ""
	for range 3 {
		base := filepath.Base(dir)
		words := strings.FieldsFunc(base, func(r rune) bool { return r == '-' || r == '_' || r == '.' || r == ' ' })
		if len(words) == 0 || base == string(filepath.Separator) {
			break
		}
		if name == "" {
			name = strings.Join(words, " ")
		}
		if joined := strings.ToLower(strings.Join(words, "")); !documentFolders[joined] && strings.IndexFunc(joined, unicode.IsLetter) >= 0 {
			return strings.Join(words, " ")
		}
		dir = filepath.Dir(dir)
	}
	return name
}

// documentFolders are folder names that say what a folder holds, not what
// it is about (words joined, lower case); a name without a letter ("001")
// says nothing either.
var documentFolders = map[string]bool{
	"doc": true, "docs": true, "documentation": true, "kb": true, "knowledgebase": true, "knowledge": true,
	"content": true, "contents": true, "articles": true, "data": true, "wiki": true, "pages": true,
	"markdown": true, "md": true, "site": true, "src": true, "help": true, "faq": true, "en": true, "ru": true,
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
