package tests

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/kb"
)

// TestEveryTestKnowledgeBaseLoadsWhole: an article whose front matter is
// broken is reported and left out, so a knowledge base that answers the
// sets with an article missing would still pass for whole ("title:
// Appendix: YAML Techniques" is not YAML).
func TestEveryTestKnowledgeBaseLoadsWhole(t *testing.T) {
	dirs, err := os.ReadDir("testdata/kbs")
	require.NoError(t, err)
	require.NotEmpty(t, dirs)
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		t.Run(d.Name(), func(t *testing.T) {
			docs, errs := kb.LoadDir(filepath.Join("testdata/kbs", d.Name()))
			assert.Empty(t, errs)
			assert.NotEmpty(t, docs)
		})
	}
}
