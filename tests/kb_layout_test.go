package tests

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/eval"
	"github.com/sgrgraph/sgrgraph/eval/runner"
)

// TestKnowledgeBaseLayoutDoesNotChooseTheArticle: which article answers a
// question depends on what the articles say, not on where they are kept.
// Each knowledge base (four documentation sets from different projects) is
// copied under another folder name; every question of its answers set must
// be answered from the same article (the first one the answer cites) as
// from the original.
func TestKnowledgeBaseLayoutDoesNotChooseTheArticle(t *testing.T) {
	if testing.Short() {
		t.Skip("runs four answer sets three times")
	}
	for _, name := range []string{"etcd", "cargo", "helm", "rclone"} {
		t.Run(name, func(t *testing.T) {
			set, err := eval.LoadSet("testdata/eval/answers_" + name + ".jsonl")
			require.NoError(t, err)
			src, err := filepath.Abs(filepath.Join(set.Dir, set.Items[0].KB))
			require.NoError(t, err)
			tmp := t.TempDir()
			renamed := copyKB(t, src, filepath.Join(tmp, "export-2031", "kb_files"))
			answered := func(dir string) []string {
				s := eval.Set{Name: set.Name, Dir: set.Dir}
				for _, it := range set.Items {
					it.KB = dir
					s.Items = append(s.Items, it)
				}
				cfg := config.Default()
				cfg.KB.CacheDir = t.TempDir()
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
			want := answered(src)
			assert.Equal(t, want, answered(renamed), "the folder's name changed which article answers")
		})
	}
}

// copyKB copies the Markdown articles of src to dst; dst is returned
// absolute.
func copyKB(t *testing.T, src, dst string) string {
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
