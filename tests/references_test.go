package tests

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// outsideReference matches a citation of a design document that is not in
// the repository (its name in capitals, then a section sign or ".md"): a
// reader of the code cannot follow it. The pattern is split so that this
// file does not match itself.
var outsideReference = regexp.MustCompile(`\b` + "DESIGN" + `(\.md\b| ?§)`)

// TestNoReferenceOutsideTheRepository checks the code, the docs and the
// examples cite only what the repository holds.
func TestNoReferenceOutsideTheRepository(t *testing.T) {
	var found []string
	require.NoError(t, filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		switch filepath.Ext(path) {
		case ".go", ".md", ".yaml", ".yml", ".js", ".html":
		default:
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if outsideReference.MatchString(line) {
				found = append(found, fmt.Sprintf("%s:%d: %s", path, i+1, strings.TrimSpace(line)))
			}
		}
		return nil
	}))
	assert.Empty(t, found, "cite a file of the repository (docs/…) instead")
}
