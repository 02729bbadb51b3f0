package tests

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/eval"
	"github.com/sgrgraph/sgrgraph/eval/runner"
)

// TestKnowledgeBaseLayoutDoesNotChooseTheArticle: which article answers a
// question depends on what the articles say, not on where they are kept
// nor on whether their headings name the product. Each knowledge base
// (seven documentation sets from different projects, and a bank's help
// centre, whose headings name no product) is copied under
// another folder name, and copied again with the product's name taken out
// of its titles and headings ("Upgrading etcd clusters" becomes "Upgrading
// clusters"), and copied a third time as a documentation site keeps its
// pages (copyAsSite: MDX index pages in folders, admonitions, components and
// shortcodes around paragraphs, a hidden folder and node_modules beside
// them); every question of its answers set (of Jest's documentation,
// which has none, its headings) must be answered from the same article
// (the first one the answer cites) from each copy as from the original.
func TestKnowledgeBaseLayoutDoesNotChooseTheArticle(t *testing.T) {
	if testing.Short() {
		t.Skip("runs nine knowledge bases four times: runs without -short, as in the README's test command and CI")
	}
	t.Parallel()
	for name, product := range map[string]string{"etcd": "etcd", "cargo": "Cargo", "helm": "Helm", "rclone": "rclone",
		"prometheus": "Prometheus", "hugo": "Hugo", "bank": "Bank"} {
		t.Run(name, func(t *testing.T) {
			set, err := eval.LoadSet("testdata/eval/answers_" + name + ".jsonl")
			require.NoError(t, err)
			sameArticleInEveryLayout(t, set, product)
		})
	}
	// Documentation with no question set, asked each of its sections'
	// headings as a question, as it is and as "How does … work in
	// <product>?": Jest's, whose titles name the product in some pages
	// ("Configuring Jest") and not in others; HTTPX's, an MkDocs site
	// whose "advanced" pages have no title line (the site's navigation
	// gives them one) and whose notes are admonitions ("!!! hint") over
	// indented text.
	for _, docs := range []struct{ name, product string }{{"jest", "Jest"}, {"httpx", "HTTPX"}} {
		t.Run(docs.name, func(t *testing.T) {
			set := eval.Set{Name: docs.name + "_headings", Dir: "testdata"}
			for i, q := range headingQuestions(t, "testdata/kbs/"+docs.name, docs.product) {
				set.Items = append(set.Items, eval.Item{Kind: eval.KindAnswers, ID: fmt.Sprint(i), Question: q, KB: "kbs/" + docs.name, Line: i + 1})
			}
			require.Greater(t, len(set.Items), 150)
			sameArticleInEveryLayout(t, set, docs.product)
		})
	}
}

// sameArticleInEveryLayout answers every question of set (all of one
// knowledge base) from the knowledge base as it is, copied under another
// folder name, copied with product taken out of its titles and headings,
// and copied as a documentation site keeps its pages, and checks that
// each question is answered from the same article (the first one the
// answer cites) every time.
func sameArticleInEveryLayout(t *testing.T, set eval.Set, product string) {
	t.Helper()
	src, err := filepath.Abs(filepath.Join(set.Dir, set.Items[0].KB))
	require.NoError(t, err)
	tmp := t.TempDir()
	renamed := copyKB(t, src, filepath.Join(tmp, "export-2031", "kb_files"), nil)
	unnamed := copyKB(t, src, filepath.Join(tmp, "unnamed"), withoutName(product))
	site := copyAsSite(t, src, filepath.Join(tmp, "site", "docs"))
	answered := func(dir string) []string {
		s := eval.Set{Name: set.Name, Dir: set.Dir}
		for _, it := range set.Items {
			it.KB = dir
			s.Items = append(s.Items, it)
		}
		cfg := config.Default()
		cfg.KB.CacheDir = sharedIndex("")
		obs, err := runner.Run(context.Background(), []eval.Set{s}, runner.Options{Config: cfg, Parallel: 2})
		require.NoError(t, err)
		out := make([]string, len(set.Items))
		for _, o := range obs[0] {
			require.Empty(t, o.Error)
			if len(o.Cited) > 0 {
				out[o.Item] = o.Cited[0]
			}
		}
		return out
	}
	// The original as the set names it (against set.Dir), so that its
	// index is the one the other tests of the set share.
	want := answered(set.Items[0].KB)
	assert.Equal(t, want, answered(renamed), "the folder's name changed which article answers")
	assert.Equal(t, want, answered(unnamed), "taking the product's name out of the headings changed which article answers")
	assert.Equal(t, want, answered(site), "laying the articles out as a documentation site's pages changed which article answers")
}

// headingQuestions are the second-level headings of the articles under
// dir, outside code, each asked as it is ("Preset configuration") and as
// "How does preset configuration work in <product>?".
func headingQuestions(t *testing.T, dir, product string) []string {
	t.Helper()
	var out []string
	require.NoError(t, filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".md" {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fence := false
		for line := range strings.Lines(string(b)) {
			l := strings.TrimSpace(line)
			if strings.HasPrefix(l, "```") {
				fence = !fence
			}
			if h, ok := strings.CutPrefix(l, "## "); ok && !fence {
				out = append(out, h, "How does "+strings.ToLower(h)+" work in "+product+"?")
			}
		}
		return nil
	}))
	return out
}

// copyKB copies the Markdown articles of src to dst, each through edit
// when it is given; dst is returned absolute.
func copyKB(t *testing.T, src, dst string, edit func(string) string) string {
	t.Helper()
	require.NoError(t, filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".md" {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text := string(b)
		if edit != nil {
			text = edit(text)
		}
		rel, _ := filepath.Rel(src, path)
		out := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		return os.WriteFile(out, []byte(text), 0o644)
	}))
	abs, err := filepath.Abs(dst)
	require.NoError(t, err)
	return abs
}

// copyAsSite copies the Markdown articles of src to dst as a documentation
// site keeps its pages: each article the index page of a folder of its
// own (guide.md becomes guide/index.mdx), an MDX import under its front
// matter, every other paragraph in an admonition, a component or a
// shortcode, and a hidden folder and node_modules beside them with pages
// of their own. None of it is what the page shows; dst is returned
// absolute.
// siteMarkup is a line that opens a site generator's block or tag:
// admonitions, tabs, directives, shortcodes, components.
var siteMarkup = regexp.MustCompile(`^(?:!!!|\?\?\?|===|:::|///|\{\{|\{%|<)`)

func copyAsSite(t *testing.T, src, dst string) string {
	t.Helper()
	wrappers := [][2]string{{":::tip", ":::"}, {"<Callout type=\"info\">", "</Callout>"}, {"{{< note >}}", "{{< /note >}}"}}
	dst = copyKB(t, src, dst, func(text string) string {
		lines := strings.Split(text, "\n")
		var out []string
		front, fence, n := 0, false, 0
		for i := 0; i < len(lines); i++ {
			line := lines[i]
			t := strings.TrimSpace(line)
			switch {
			case front < 2 && t == "---":
				front++
				out = append(out, line)
				if front == 2 {
					out = append(out, "", "import Tabs from '@theme/Tabs';", "")
				}
				continue
			case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
				fence = !fence
			}
			paragraph := !fence && t != "" && !strings.HasPrefix(t, "#") && (i == 0 || strings.TrimSpace(lines[i-1]) == "")
			// A site wraps its own paragraphs: not an indented block's
			// (a wrapper at the margin would end the block it is in), nor
			// one that is markup already ("!!! note", "::: httpx.get").
			if indented := strings.TrimLeft(line, " \t") != line; paragraph && (indented || siteMarkup.MatchString(t)) {
				paragraph = false
			}
			if !paragraph || front == 1 {
				out = append(out, line)
				continue
			}
			end := i
			for end+1 < len(lines) && strings.TrimSpace(lines[end+1]) != "" && !strings.HasPrefix(strings.TrimSpace(lines[end+1]), "```") {
				end++
			}
			if n++; n%2 == 0 {
				w := wrappers[n/2%len(wrappers)]
				out = append(append(append(out, w[0]), lines[i:end+1]...), w[1])
			} else {
				out = append(out, lines[i:end+1]...)
			}
			i = end
		}
		return strings.Join(out, "\n")
	})
	entries, err := os.ReadDir(dst)
	require.NoError(t, err)
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || filepath.Ext(name) != ".md" {
			continue
		}
		page := filepath.Join(dst, strings.TrimSuffix(name, ".md"))
		require.NoError(t, os.MkdirAll(page, 0o755))
		require.NoError(t, os.Rename(filepath.Join(dst, name), filepath.Join(page, "index.mdx")))
	}
	for _, extra := range []string{".github/PULL_REQUEST_TEMPLATE.md", "node_modules/left-pad/README.md"} {
		p := filepath.Join(dst, extra)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte("# Checklist\n\nEvery answer, every question and every article.\n"), 0o644))
	}
	return dst
}

// withoutName takes product out of an article's title (its front matter's
// and its headings'), outside code, as a knowledge base whose headings do
// not repeat the product's name has them: "# Upgrading etcd clusters" is
// "# Upgrading clusters". A word that only holds the name ("Cargo.toml",
// "etcdctl") is left.
func withoutName(product string) func(string) string {
	return func(text string) string {
		lines := strings.Split(text, "\n")
		fence := false
		for i, line := range lines {
			t := strings.TrimSpace(line)
			if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
				fence = !fence
			}
			title := strings.HasPrefix(line, "title:")
			if fence || !title && !strings.HasPrefix(line, "#") {
				continue
			}
			words := strings.Fields(strings.TrimPrefix(line, "title:"))
			words = slices.DeleteFunc(words, func(w string) bool {
				return strings.EqualFold(strings.Trim(w, "\"'`()[]:,;!?"), product)
			})
			line = strings.Join(words, " ")
			if title {
				line = `title: "` + strings.Trim(line, `"`) + `"`
			}
			lines[i] = line
		}
		return strings.Join(lines, "\n")
	}
}
