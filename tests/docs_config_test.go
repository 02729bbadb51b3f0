package tests

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/config"
)

// yamlBlock is a YAML block of a document.
var yamlBlock = regexp.MustCompile("(?s)```yaml\n(.*?)```")

// TestDocsConfigBlockIsTheDefaults: the configuration page's YAML block is
// the defaults a program starts from, key for key and value for value: a
// default changed in config/defaults.yaml and not on the page (or a key the
// page names that the program no longer knows) fails here.
func TestDocsConfigBlockIsTheDefaults(t *testing.T) {
	blocks := yamlBlocks(t, "../docs/configuration.md")
	require.NotEmpty(t, blocks, "docs/configuration.md has its YAML block")
	got, err := config.Load(writeTemp(t, blocks[0]), nil)
	require.NoError(t, err, "docs/configuration.md's block loads as a configuration")
	assert.Equal(t, config.Default(), got, "docs/configuration.md's block differs from config/defaults.yaml")
}

// TestDocsYAMLBlocksLoad: every YAML block of the docs that is a
// configuration (not a Kubernetes or Compose file) loads with the
// program's own strict reader: no unknown key, no bad value.
func TestDocsYAMLBlocksLoad(t *testing.T) {
	docs, err := filepath.Glob("../docs/*.md")
	require.NoError(t, err)
	checked := 0
	for _, doc := range append(docs, "../README.md") {
		for i, block := range yamlBlocks(t, doc) {
			if !isConfig(block) {
				continue
			}
			checked++
			_, err := config.Load(writeTemp(t, block), nil)
			assert.NoError(t, err, "%s: YAML block %d", doc, i+1)
		}
	}
	assert.Greater(t, checked, 5, "the docs' configuration blocks were found")
}

// isConfig tells a configuration block from other YAML (an article's front
// matter, a compose file, a manifest) by its top-level keys.
func isConfig(block string) bool {
	for _, line := range strings.Split(block, "\n") {
		if line == "" || line[0] == ' ' || line[0] == '#' || line[0] == '-' {
			continue
		}
		key, _, _ := strings.Cut(line, ":")
		switch key {
		case "title", "kb_id", "services", "apiVersion", "kind", "version", "receivers", "exporters", "scrape_configs":
			return false
		}
	}
	return true
}

func yamlBlocks(t *testing.T, doc string) []string {
	t.Helper()
	data, err := os.ReadFile(doc)
	require.NoError(t, err)
	var blocks []string
	for _, m := range yamlBlock.FindAllStringSubmatch(string(data), -1) {
		blocks = append(blocks, m[1])
	}
	return blocks
}

func writeTemp(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.yaml")
	require.NoError(t, os.WriteFile(path, []byte(text), 0o600))
	return path
}
