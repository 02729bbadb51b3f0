package kb

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/adrg/frontmatter"
)

// Doc is one Markdown article as loaded from disk.
type Doc struct {
	// Path is the file's path relative to the knowledge-base root, with slashes.
	Path  string
	KBID  string
	Title string
	URL   string
	Tags  []string
	// Body is the Markdown without front matter.
	Body string
	// Hash is the SHA-256 of the whole file, to find changed files.
	Hash string
}

type frontMatter struct {
	Title string   `yaml:"title"`
	KBID  string   `yaml:"kb_id"`
	URL   string   `yaml:"url"`
	Tags  []string `yaml:"tags"`
}

// LoadDir loads every *.md file under dir. Files that fail are returned as
// errors naming the file; the others are loaded.
func LoadDir(dir string) ([]Doc, []error) {
	info, err := os.Stat(dir)
	if err != nil {
		return nil, []error{fmt.Errorf("knowledge base %s: %w", dir, err)}
	}
	if !info.IsDir() {
		return nil, []error{fmt.Errorf("knowledge base %s: not a directory", dir)}
	}
	docs, errs := LoadFS(os.DirFS(dir), ".")
	for i, e := range errs {
		errs[i] = fmt.Errorf("%s: %w", filepath.Clean(dir), e)
	}
	return docs, errs
}

// LoadFS loads every *.md file under root in fsys, so that an embedded folder
// serves as a knowledge base too.
func LoadFS(fsys fs.FS, root string) ([]Doc, []error) {
	var docs []Doc
	var errs []error
	walkErr := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		if d.IsDir() || !strings.EqualFold(path.Ext(p), ".md") {
			return nil
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		doc, err := parseDoc(strings.TrimPrefix(p, root+"/"), data)
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		docs = append(docs, doc)
		return nil
	})
	if walkErr != nil {
		errs = append(errs, walkErr)
	}
	sort.Slice(docs, func(i, j int) bool { return docs[i].Path < docs[j].Path })
	return docs, errs
}

func parseDoc(p string, data []byte) (Doc, error) {
	var fm frontMatter
	body, err := frontmatter.Parse(bytes.NewReader(data), &fm)
	if err != nil {
		return Doc{}, fmt.Errorf("%s: front matter: %w", p, err)
	}
	sum := sha256.Sum256(data)
	name := strings.TrimSuffix(path.Base(p), path.Ext(p))
	doc := Doc{Path: p, KBID: strings.TrimSpace(fm.KBID), Title: strings.TrimSpace(fm.Title), URL: fm.URL,
		Tags: fm.Tags, Body: string(body), Hash: hex.EncodeToString(sum[:])}
	if doc.KBID == "" {
		doc.KBID = name
	}
	if doc.Title == "" {
		doc.Title = firstHeading(doc.Body)
	}
	if doc.Title == "" {
		doc.Title = name
	}
	return doc, nil
}

func firstHeading(body string) string {
	inFence := fence{}
	for _, line := range strings.Split(body, "\n") {
		if inFence.toggle(line) || inFence.open {
			continue
		}
		if t, ok := strings.CutPrefix(strings.TrimSpace(line), "# "); ok {
			return strings.TrimSpace(t)
		}
	}
	return ""
}
