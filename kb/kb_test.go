package kb

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	}
}

func openSynced(t *testing.T, kbDir string) (*Index, SyncStats) {
	t.Helper()
	docs, errs := LoadDir(kbDir)
	require.Empty(t, errs)
	idx, err := Open(t.TempDir(), DefaultOptions())
	require.NoError(t, err)
	t.Cleanup(func() { idx.Close() })
	stats, err := idx.Sync(docs)
	require.NoError(t, err)
	return idx, stats
}

func TestParseDocFrontMatter(t *testing.T) {
	tests := []struct {
		name, path, data string
		kbID, title, url string
		tags             []string
		body             string
	}{
		{"full front matter", "a/guard.md", "---\ntitle: Guard\nkb_id: KB-7\nurl: https://x/guard\ntags: [safety, dt-001]\n---\n# Ignored\ntext",
			"KB-7", "Guard", "https://x/guard", []string{"safety", "dt-001"}, "# Ignored\ntext"},
		{"no front matter: file name and first heading", "tables.md", "intro\n# Decision tables\n\nbody",
			"tables", "Decision tables", "", nil, "intro\n# Decision tables\n\nbody"},
		{"heading inside a code fence is not a title", "x.md", "```\n# not a title\n```\n", "x", "X", "", nil, "```\n# not a title\n```\n"},
		{"a file's name as a title", "guides/event-hooks.md", "body\n", "event-hooks", "Event hooks", "", nil, "body\n"},
		{"a name written with capitals is kept", "API_Reference.md", "body\n", "API_Reference", "API_Reference", "", nil, "body\n"},
		{"an index page's title is its folder's", "resource_limits/index.md", "body\n", "resource_limits", "Resource limits", "", nil, "body\n"},
		{"an html heading", "index.md", "<p align=\"center\"><img src=\"logo.png\"></p>\n<h1 align=\"center\">\nHTTPX\n</h1>\n\nA client.\n", "index", "HTTPX", "", nil,
			"<p align=\"center\"><img src=\"logo.png\"></p>\n<h1 align=\"center\">\nHTTPX\n</h1>\n\nA client.\n"},
		{"an underlined title", "setup.md", "Setting up\n==========\n\nbody\n", "setup", "Setting up", "", nil, "Setting up\n==========\n\nbody\n"},
		{"an underlined title, CRLF", "a.md", "Installing the agent\r\n====================\r\n\r\nText.\r\n", "a", "Installing the agent", "", nil,
			"Installing the agent\r\n====================\r\n\r\nText.\r\n"},
		{"an underlined title of two lines", "a.md", "Installing\nthe agent\n===\n", "a", "Installing the agent", "", nil, "Installing\nthe agent\n===\n"},
		{"an h1 in code is no title", "a.md", "Use `<h1>Welcome</h1>` for a page's heading.\n", "a", "A", "", nil, "Use `<h1>Welcome</h1>` for a page's heading.\n"},
		{"a second-level underline is no title", "x.md", "Part\n----\nbody\n", "x", "X", "", nil, "Part\n----\nbody\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := parseDoc(tc.path, []byte(tc.data))
			require.NoError(t, err)
			assert.Equal(t, tc.kbID, d.KBID)
			assert.Equal(t, tc.title, d.Title)
			assert.Equal(t, tc.url, d.URL)
			assert.Equal(t, tc.tags, d.Tags)
			assert.Equal(t, tc.body, d.Body)
			assert.Len(t, d.Hash, 64)
		})
	}
}

func TestLoadFSReportsBrokenFilesAndLoadsTheRest(t *testing.T) {
	fsys := fstest.MapFS{
		"ok.md":         {Data: []byte("# Fine\ntext")},
		"broken.md":     {Data: []byte("---\ntitle: [unclosed\n---\ntext")},
		"notes.txt":     {Data: []byte("not markdown")},
		"sub/nested.MD": {Data: []byte("# Nested")},
	}
	docs, errs := LoadFS(fsys, ".")
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0].Error(), "broken.md: front matter")
	require.Len(t, docs, 2)
	assert.Equal(t, "ok.md", docs[0].Path)
	assert.Equal(t, "sub/nested.MD", docs[1].Path)
}

func TestBrokenFrontMatterSaysHowToMendIt(t *testing.T) {
	for _, tc := range []struct {
		name, data, hint string
	}{
		{"a colon in a title", "---\ntitle: Appendix: YAML Techniques\n---\nbody", `must be quoted: title: "Appendix: YAML Techniques"`},
		{"an unclosed list has no hint", "---\ntitle: [unclosed\n---\ntext", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseDoc("a.md", []byte(tc.data))
			require.Error(t, err)
			assert.True(t, strings.HasPrefix(err.Error(), "a.md: front matter: yaml: "), err.Error())
			if tc.hint == "" {
				assert.NotContains(t, err.Error(), "must be quoted")
				return
			}
			assert.Contains(t, err.Error(), tc.hint)
		})
	}
}

func TestLoadDirErrors(t *testing.T) {
	_, errs := LoadDir(filepath.Join(t.TempDir(), "missing"))
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0].Error(), "missing")

	f := filepath.Join(t.TempDir(), "file.md")
	require.NoError(t, os.WriteFile(f, []byte("x"), 0o644))
	_, errs = LoadDir(f)
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0].Error(), "not a directory")
}

func TestChunkDoc(t *testing.T) {
	long := strings.Repeat("word ", 200) // ~1000 chars per paragraph
	code := "```go\n# not a heading\nfunc main() {}\n\n\nfmt.Println()\n```"
	tests := []struct {
		name     string
		body     string
		headings []string
		check    func(t *testing.T, cs []chunk)
	}{
		{"heading path", "# A\ntext a\n## B\ntext b\n### C\ntext c\n## D\ntext d",
			[]string{"A", "A > B", "A > B > C", "A > D"}, nil},
		{"text before the first heading has no heading", "preface\n# A\ntext", []string{"", "A"}, nil},
		{"heading with no text makes no chunk", "# A\n## B\ntext", []string{"A > B"}, nil},
		{"code block kept whole, # inside it is not a heading", "# A\n" + code + "\nafter", []string{"A"},
			func(t *testing.T, cs []chunk) {
				assert.Contains(t, cs[0].Text, code)
				assert.True(t, cs[0].HasCode)
			}},
		{"long section split at paragraphs", "# A\n" + long + "\n\n" + long + "\n\n" + long, []string{"A", "A", "A"},
			func(t *testing.T, cs []chunk) {
				for _, c := range cs {
					assert.LessOrEqual(t, len(c.Text), maxChunkChars+len("A\n\n"))
				}
			}},
		{"a block announcing a long one goes with it", "# A\nfirst\n\nHere is a feature list:\n\n" + long + long, []string{"A", "A"},
			func(t *testing.T, cs []chunk) {
				assert.Equal(t, "A\n\nfirst", cs[0].Text)
				assert.Equal(t, "A\n\nHere is a feature list:\n\n"+strings.TrimSpace(long+long), cs[1].Text)
			}},
		{"a block announcing alone takes the next whatever its size", "# A\nHere is a feature list:\n\n" + long + long + "\n\n" + long, []string{"A", "A"},
			func(t *testing.T, cs []chunk) {
				assert.Equal(t, "A\n\nHere is a feature list:\n\n"+strings.TrimSpace(long+long), cs[0].Text)
				assert.Equal(t, "A\n\n"+strings.TrimSpace(long), cs[1].Text)
			}},
		{"a long code block is never cut", "# A\n```\n" + long + "\n\n" + long + "\n```", []string{"A"},
			func(t *testing.T, cs []chunk) { assert.Greater(t, len(cs[0].Text), maxChunkChars) }},
		{"tilde fences", "# A\n~~~\n# inside\n~~~\n# B\ntext", []string{"A", "B"}, nil},
		{"underlined headings", "Setup\n=====\n\ntext a\n\nFirst\nrun\n---\ntext b\n\nUsage\n=====\ntext c", []string{"Setup", "Setup > First run", "Usage"},
			func(t *testing.T, cs []chunk) { assert.Equal(t, "Setup > First run\n\ntext b", cs[1].Text) }},
		{"a table or indented code over an underline", "# A\nName | Value\n--- | ---\na | 1\n---\n\n    code\n===\n", []string{"A"},
			func(t *testing.T, cs []chunk) {
				assert.Equal(t, "A\n\nName | Value\n--- | ---\na | 1\n---\n\ncode\n===", cs[0].Text)
			}},
		{"a rule after a blank line, a list item over dashes", "# A\ntext\n\n---\n\n- item\n---\nafter", []string{"A"},
			func(t *testing.T, cs []chunk) { assert.Equal(t, "A\n\ntext\n\n---\n\n- item\n---\nafter", cs[0].Text) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cs := chunkDoc(Doc{KBID: "k", Body: tc.body})
			var got []string
			for i, c := range cs {
				got = append(got, c.Heading)
				assert.Equal(t, fmt.Sprintf("k#%d", i), c.ID)
			}
			assert.Equal(t, tc.headings, got)
			if tc.check != nil {
				tc.check(t, cs)
			}
		})
	}
}

func TestSearchStemsRussianAndEnglish(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"integration.md": "---\ntitle: Интеграции\n---\n# Настройка интеграции\n\nЧтобы настроить интеграцию с внешней системой, откройте раздел интеграций.",
		"guard.md":       "# The guard\n\n## Modes\n\nThe guard classifies messages. In enforce mode unsafe messages are blocked.",
		"other.md":       "# Unrelated\n\nКотики и собаки.",
	})
	idx, stats := openSynced(t, dir)
	assert.Equal(t, SyncStats{Files: 3, Added: 3, Chunks: 3}, stats)
	tests := []struct {
		query, want string
	}{
		{"настроить интеграции", "integration"}, // inflected forms meet through the Russian stemmer
		{"интеграцией", "integration"},
		{"classifying blocked message", "guard"}, // English stemming
		{"GUARD Modes", "guard"},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			res, err := idx.Search(tc.query, 5)
			require.NoError(t, err)
			require.NotEmpty(t, res.Articles)
			assert.Equal(t, tc.want, res.Articles[0].KBID)
			assert.GreaterOrEqual(t, res.Articles[0].Score, 0.5, "every query term is in the top chunk")
			assert.True(t, res.Confidence.LikelyRelevant)
		})
	}
}

func TestSearchGroupsChunksByArticle(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := 0; i < 5; i++ {
		fmt.Fprintf(&b, "## Retry %d\n\nThe retry loop runs again.\n\n", i)
	}
	writeFiles(t, dir, map[string]string{"retry.md": "# Retries\n\n" + b.String(), "loop.md": "# Loops\n\nA loop."})
	idx, _ := openSynced(t, dir)
	res, err := idx.Search("retry loop", 10)
	require.NoError(t, err)
	require.Len(t, res.Articles, 2)
	assert.Equal(t, "retry", res.Articles[0].KBID)
	assert.Len(t, res.Articles[0].Chunks, chunksPerArticle)
	assert.Equal(t, res.Articles[0].Chunks[0].Score, res.Articles[0].Score)
	for i := 1; i < len(res.Articles[0].Chunks); i++ {
		assert.GreaterOrEqual(t, res.Articles[0].Chunks[i-1].Score, res.Articles[0].Chunks[i].Score)
	}
	assert.Less(t, res.Articles[1].Score, 0.5, "loop.md holds only half of the query")
	assert.Greater(t, res.Articles[1].Score, 0.0)
}

func TestSearchSingleGoodArticleIsConfident(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"only.md": "# Mermaid diagram\n\nThe graph command prints a Mermaid diagram."})
	idx, _ := openSynced(t, dir)
	res, err := idx.Search("mermaid diagram", 5)
	require.NoError(t, err)
	require.Len(t, res.Articles, 1)
	assert.Greater(t, res.Confidence.TopScore, 0.6, "one strong article is not pulled to 0.5")
	assert.Equal(t, res.Confidence.TopScore, res.Confidence.ScoreGap)
	assert.True(t, res.Confidence.LikelyRelevant)
	assert.Equal(t, 1, res.Confidence.NAboveThreshold)
}

func TestSearchValidatesInput(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.md": "# A\n\ntext"})
	idx, _ := openSynced(t, dir)
	tests := []struct {
		query string
		topK  int
		want  string
	}{
		{"", 5, "query: must not be empty"},
		{"  \n", 5, "query: must not be empty"},
		{"text", 0, "top_k: must be between 1 and 50, got 0"},
		{"text", -3, "top_k: must be between 1 and 50, got -3"},
		{"text", 51, "top_k: must be between 1 and 50, got 51"},
	}
	for _, tc := range tests {
		_, err := idx.Search(tc.query, tc.topK)
		assert.EqualError(t, err, tc.want)
	}
	res, err := idx.Search("the of and", 5)
	require.NoError(t, err, "a query of stop words is valid and finds nothing")
	assert.Empty(t, res.Articles)
	assert.False(t, res.Confidence.LikelyRelevant)
}

func TestSyncIsIncrementalAndPersistent(t *testing.T) {
	kbDir, cache := t.TempDir(), t.TempDir()
	writeFiles(t, kbDir, map[string]string{"a.md": "# Alpha\n\nalpha text", "b.md": "# Beta\n\nbeta text", "c.md": "# Gamma\n\ngamma text"})
	sync := func() SyncStats {
		docs, errs := LoadDir(kbDir)
		require.Empty(t, errs)
		idx, err := Open(cache, DefaultOptions())
		require.NoError(t, err)
		defer idx.Close()
		stats, err := idx.Sync(docs)
		require.NoError(t, err)
		return stats
	}
	assert.Equal(t, SyncStats{Files: 3, Added: 3, Chunks: 3}, sync())
	assert.Equal(t, SyncStats{Files: 3, Unchanged: 3, Chunks: 3}, sync(), "nothing changed: nothing re-indexed")

	writeFiles(t, kbDir, map[string]string{"b.md": "# Beta\n\nbeta text, now about delta\n\n## More\n\nmore"})
	require.NoError(t, os.Remove(filepath.Join(kbDir, "c.md")))
	assert.Equal(t, SyncStats{Files: 2, Updated: 1, Unchanged: 1, Removed: 1, Chunks: 3}, sync())

	idx, err := Open(cache, DefaultOptions())
	require.NoError(t, err)
	defer idx.Close()
	res, err := idx.Search("delta", 5)
	require.NoError(t, err)
	require.Len(t, res.Articles, 1, "the changed file was re-indexed")
	assert.Equal(t, "b", res.Articles[0].KBID)
	res, err = idx.Search("gamma", 5)
	require.NoError(t, err)
	assert.Empty(t, res.Articles, "the removed file's chunks are gone")
}

func TestSyncRebuildsAnIndexOfAnotherSchema(t *testing.T) {
	kbDir, cache := t.TempDir(), t.TempDir()
	writeFiles(t, kbDir, map[string]string{"a.md": "# Alpha\n\nalpha"})
	docs, _ := LoadDir(kbDir)
	idx, err := Open(cache, DefaultOptions())
	require.NoError(t, err)
	_, err = idx.Sync(docs)
	require.NoError(t, err)
	require.NoError(t, idx.Close())

	gen, err := readPointer(cache)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(cache, gen, manifestName), []byte(`{"schema":0,"files":{}}`), 0o644))
	idx, err = Open(cache, DefaultOptions())
	require.NoError(t, err)
	defer idx.Close()
	stats, err := idx.Sync(docs)
	require.NoError(t, err)
	assert.Equal(t, 1, stats.Added, "an index of an older schema is rebuilt from scratch")
	res, err := idx.Search("alpha", 5)
	require.NoError(t, err)
	require.Len(t, res.Articles, 1)
	assert.Equal(t, []string{mustPointer(t, cache)}, generations(t, cache), "the old generation is removed")
}

func TestSyncReportsDuplicateKBID(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.md": "---\nkb_id: same\n---\n# A\n\nfirst", "b.md": "---\nkb_id: same\n---\n# B\n\nsecond"})
	docs, _ := LoadDir(dir)
	idx, err := Open(t.TempDir(), DefaultOptions())
	require.NoError(t, err)
	defer idx.Close()
	stats, err := idx.Sync(docs)
	require.NoError(t, err)
	require.Len(t, stats.Errors, 1)
	assert.Contains(t, stats.Errors[0], `b.md: kb_id "same" is already used by a.md`)
	assert.Equal(t, 1, stats.Added)
}

func TestOpenValidatesOptions(t *testing.T) {
	_, err := Open(t.TempDir(), Options{RelevanceThreshold: 1.5, MeanTopK: 5, LockTimeout: time.Second})
	assert.EqualError(t, err, "relevance_threshold: 1.5 is outside [0,1]")
	_, err = Open(t.TempDir(), Options{RelevanceThreshold: 0, MeanTopK: 0, LockTimeout: time.Second})
	assert.EqualError(t, err, "mean_top_k: 0 is below 1", "a threshold of 0 is taken as given")
}

func TestDefaultCacheDirIsPerFolder(t *testing.T) {
	a, b := DefaultCacheDir("/tmp/kb-one"), DefaultCacheDir("/tmp/kb-two")
	assert.NotEqual(t, a, b)
	assert.Equal(t, a, DefaultCacheDir("/tmp/kb-one"))
	assert.Contains(t, a, "sgrgraph")
}
