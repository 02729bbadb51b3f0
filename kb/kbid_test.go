package kb

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFileID(t *testing.T) {
	for _, tc := range []struct{ path, short, long string }{
		{"install.md", "install", "install"},
		{"guides/install.md", "install", "guides/install"},
		{"guides/index.md", "guides", "guides"},
		{"docs/guides/_index.md", "guides", "docs/guides"},
		{"api/README.md", "api", "api"},
		{"index.mdx", "index", "index"},
		{"notes/release.v2.markdown", "release.v2", "notes/release.v2"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			short, long := fileID(tc.path)
			assert.Equal(t, tc.short, short)
			assert.Equal(t, tc.long, long)
		})
	}
}

// A documentation site has an index page in every folder and the same
// page name in several: every one is an article, none is skipped as a
// duplicate, and a kb_id its front matter gives is kept.
func TestEveryPageOfASiteIsAnArticle(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"index.md":           "# Welcome\n\nStart here.\n",
		"guides/index.md":    "# Guides\n\nHow-to guides.\n",
		"api/_index.md":      "# API\n\nThe reference.\n",
		"linux/install.md":   "# Install on Linux\n\nUse the package.\n",
		"macos/install.md":   "# Install on macOS\n\nUse brew.\n",
		"macos/uninstall.md": "# Uninstall\n\nDrag it to the bin.\n",
		"faq/README.md":      "---\nkb_id: FAQ-1\n---\n# FAQ\n\nQuestions.\n",
		"ref/README.md":      "# Reference\n\nThe repository's page.\n",
		"ref/index.md":       "# Reference\n\nThe site's page.\n",
		"notes.md":           "# Notes\n\nAs written.\n",
		"notes.mdx":          "# Notes\n\nWith components.\n",
		"c/usage.md":         "# Usage\n\nBy its file.\n",
		"d/intro.md":         "---\nkb_id: usage\n---\n# Intro\n\nBy its front matter.\n",
	})
	idx, stats := openSynced(t, dir)
	assert.Empty(t, stats.Errors, "no article is a duplicate")
	assert.Equal(t, 13, stats.Added)
	res, err := idx.Search("brew", 5)
	require.NoError(t, err)
	require.NotEmpty(t, res.Articles)
	assert.Equal(t, "macos/install", res.Articles[0].KBID)

	docs, errs := LoadDir(dir)
	require.Empty(t, errs)
	ids := map[string]string{}
	for _, d := range docs {
		ids[d.Path] = d.KBID
	}
	assert.Equal(t, map[string]string{
		"index.md": "index", "guides/index.md": "guides", "api/_index.md": "api",
		"linux/install.md": "linux/install", "macos/install.md": "macos/install", "macos/uninstall.md": "uninstall",
		"faq/README.md": "FAQ-1", "ref/README.md": "ref/README.md", "ref/index.md": "ref/index.md",
		"notes.md": "notes.md", "notes.mdx": "notes.mdx", "c/usage.md": "c/usage", "d/intro.md": "usage",
	}, ids)
}

// A repository's own pages and a site's packages are not the knowledge
// base's: a hidden folder, a hidden file and node_modules are left out, whether the
// folder is read from disk or from an fs.FS; the root is read whatever its
// name.
func TestHiddenFoldersAndPackagesAreLeftOut(t *testing.T) {
	root := filepath.Join(t.TempDir(), ".kb")
	writeFiles(t, root, map[string]string{
		"guide.md":                         "# Guide\n\nRead me.\n",
		".github/PULL_REQUEST_TEMPLATE.md": "# Template\n",
		"node_modules/left-pad/README.md":  "# left-pad\n",
		"site/.vitepress/theme/notes.md":   "# Theme\n",
		".draft.md":                        "# Draft\n",
		".md":                              "# Nameless\n",
	})
	docs, errs := LoadDir(root)
	require.Empty(t, errs)
	require.Len(t, docs, 1)
	assert.Equal(t, "guide.md", docs[0].Path)

	docs, errs = LoadFS(os.DirFS(root), ".")
	require.Empty(t, errs)
	require.Len(t, docs, 1)
	assert.Equal(t, "guide.md", docs[0].Path)
}
