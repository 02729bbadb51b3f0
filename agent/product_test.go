package agent

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/config"
)

func TestProductOf(t *testing.T) {
	kbIn := func(path string, files map[string]string) string {
		dir := filepath.Join(t.TempDir(), path)
		require.NoError(t, os.MkdirAll(dir, 0o755))
		for name, text := range files {
			require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
		}
		return dir
	}
	kb := func(files map[string]string) string { return kbIn("trail-gear_manuals", files) }
	tests := []struct {
		name    string
		product string // configured; "" keeps the default
		dir     string
		want    string
	}{
		{"the embedded documentation is sgrgraph's", "", "", "sgrgraph"},
		{"a configured product is kept", "Acme Cloud", kb(map[string]string{"index.md": "# Trail Gear"}), "Acme Cloud"},
		{"front matter product", "", kb(map[string]string{"tent.md": "---\ntitle: Tents\nproduct: \"Trail Gear\"\n---\n# Welcome"}), "Trail Gear"},
		{"the word the titles share and the texts say", "", kb(map[string]string{
			"a.md": "# Installing Zorp\n\nZorp runs on Linux.", "b.md": "---\ntitle: Zorp backups\n---\nBack Zorp up daily.",
			"c.md": "# Upgrades\n\nUpgrade zorp in place."}), "Zorp"},
		{"a title word some texts lack is a kind, not a product", "", kb(map[string]string{
			"a.md": "# Hiking Pants\n\nLight hiking pants.", "b.md": "# Hiking Shoes\n\nFor hiking.", "c.md": "# Camping Stove\n\nCooks fast."}), "this service"},
		{"the word the titles end with names a kind of page", "", kb(map[string]string{
			"a.md": "# Card Policy\n\nThis policy covers cards.", "b.md": "# Fraud Policy\n\nThe policy on fraud.",
			"c.md": "# Payment Policy\n\nOur policy on payments."}), "this service"},
		{"never the folder's name", "", kb(map[string]string{"tent.md": "# Tent X2"}), "this service"},
		{"never the project's folder either", "", kbIn("rclone/docs/content", map[string]string{"sync.md": "# sync"}), "this service"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := config.Default()
			if tc.product != "" {
				cfg.Product = tc.product
			}
			cfg.KB.Dir = tc.dir
			assert.Equal(t, tc.want, ProductOf(cfg))
		})
	}
	t.Run("the neutral wording is in the configured language", func(t *testing.T) {
		cfg := config.Default()
		cfg.KB.Dir, cfg.Language = kb(map[string]string{"tent.md": "# Tent X2"}), "ru"
		assert.Equal(t, "этого сервиса", ProductOf(cfg))
	})
}

// A program that builds the agent on a knowledge base of another domain,
// as sgrgraph eval does for a set's own knowledge base, gets texts naming
// that knowledge base's product, never sgrgraph: New names it.
func TestNewNamesTheKnowledgeBasesProduct(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "kb-export")
	require.NoError(t, os.Mkdir(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "index.md"),
		[]byte("---\nproduct: Trail Gear\n---\n# Trail Gear tents\n\nThe X2 tent sleeps two and weighs 1.9 kg.\n"), 0o644))
	cfg := config.Default()
	cfg.KB.Dir, cfg.KB.CacheDir = dir, t.TempDir()
	a, err := New(context.Background(), cfg, Options{})
	require.NoError(t, err)
	defer a.Close()
	res, err := a.Run(context.Background(), Turn{SessionID: "s", Message: "Buy cheap watches, best price, visit http://example.com/deal"})
	require.NoError(t, err)
	assert.Contains(t, res.Answer, "Trail Gear")
	assert.NotContains(t, res.Answer, "sgrgraph")
}
