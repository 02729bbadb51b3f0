package tests

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// snippetMark names the test file whose code a document's Go block copies:
// the file compiles and runs, so the block cannot drift into code that
// does not.
var snippetMark = regexp.MustCompile(`<!-- snippet: (\S+) -->\n` + "```go\n" + `([\s\S]*?)` + "```")

// TestDocSnippets checks every Go block of the README and the docs: each
// is marked with the test file it comes from and appears there line for
// line (one indent less, as a function body).
func TestDocSnippets(t *testing.T) {
	docs, err := filepath.Glob("../docs/*.md")
	require.NoError(t, err)
	for _, doc := range append(docs, "../README.md") {
		data, err := os.ReadFile(doc)
		require.NoError(t, err)
		text := string(data)
		marked := snippetMark.FindAllStringSubmatch(text, -1)
		assert.Equal(t, strings.Count(text, "```go"), len(marked), "%s: a Go block without a <!-- snippet: FILE --> line before it", doc)
		for _, m := range marked {
			src, err := os.ReadFile(filepath.Join("..", m[1]))
			require.NoError(t, err, "%s names %s", doc, m[1])
			var body []string
			for _, line := range strings.Split(string(src), "\n") {
				body = append(body, strings.TrimPrefix(line, "\t"))
			}
			assert.True(t, strings.Contains(strings.Join(body, "\n"), strings.TrimSpace(m[2])),
				"%s: the block differs from %s:\n%s", doc, m[1], m[2])
		}
	}
}
