//go:build unix

package kb

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// loadWithin runs LoadDirContext and fails the test if it does not return
// in time: opening a named pipe, or reading /dev/zero, never returns.
func loadWithin(t *testing.T, dir string, opts LoadOptions) ([]Doc, []error) {
	t.Helper()
	type loaded struct {
		docs []Doc
		errs []error
	}
	done := make(chan loaded, 1)
	go func() {
		docs, errs := LoadDirContext(context.Background(), dir, opts)
		done <- loaded{docs, errs}
	}()
	select {
	case l := <-done:
		return l.docs, l.errs
	case <-time.After(5 * time.Second):
		t.Fatalf("loading %s did not return within 5s", dir)
		return nil, nil
	}
}

func paths(docs []Doc) []string {
	out := []string{}
	for _, d := range docs {
		out = append(out, d.Path)
	}
	return out
}

func TestSpecialFilesAreSkippedNotOpened(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"ok.md": "# Fine\n\ntext"})
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "pipe.md"), 0o644))
	// A socket path must be short; the listener's file is the socket.
	sockDir, err := os.MkdirTemp("", "kbsock")
	require.NoError(t, err)
	defer os.RemoveAll(sockDir)
	ln, err := net.Listen("unix", filepath.Join(sockDir, "s.md"))
	require.NoError(t, err)
	defer ln.Close()
	require.NoError(t, os.Symlink(filepath.Join(sockDir, "s.md"), filepath.Join(dir, "socket.md")))
	require.NoError(t, os.Symlink("/dev/zero", filepath.Join(dir, "zero.md")))

	docs, errs := loadWithin(t, dir, LoadOptions{FollowExternalLinks: true})
	assert.Equal(t, []string{"ok.md"}, paths(docs))
	require.Len(t, errs, 3)
	for _, e := range errs {
		assert.ErrorIs(t, e, ErrSkipped)
	}
	assert.Contains(t, errs[0].Error(), "pipe.md: named pipe, not a regular file: skipped")
	assert.Contains(t, errs[1].Error(), "socket.md: link to "+filepath.Join(sockDir, "s.md")+", socket, not a regular file")
	assert.Contains(t, errs[2].Error(), "zero.md: link to /dev/zero, character device, not a regular file")

	idx, err := Open(t.TempDir(), DefaultOptions())
	require.NoError(t, err)
	defer idx.Close()
	stats, err := idx.Sync(docs)
	require.NoError(t, err)
	assert.Equal(t, 1, stats.Added)
}

func TestLinksOutOfTheFolderAreNotFollowed(t *testing.T) {
	outside := t.TempDir()
	writeFiles(t, outside, map[string]string{"secret.md": "# Secret\n\npassword hunter2"})
	real := t.TempDir()
	writeFiles(t, real, map[string]string{
		"guide.md":     "# Guide\n\nthe guide",
		"sub/inner.md": "# Inner\n\ninner text",
	})
	links := map[string]string{
		"direct.md":       filepath.Join(outside, "secret.md"),
		"relative.md":     filepath.Join("..", filepath.Base(outside), "secret.md"),
		"hop.md":          "direct.md", // inside, but on to the outside
		"alias.md":        "guide.md",
		"sub/up.md":       filepath.Join("..", "guide.md"),
		"sub/absolute.md": filepath.Join(real, "sub", "inner.md"),
		"dangling.md":     "missing.md",
	}
	for name, target := range links {
		require.NoError(t, os.Symlink(target, filepath.Join(real, name)))
	}
	// The knowledge base is named through a link of its own: what is inside
	// is judged by where the folder really is.
	kb := filepath.Join(t.TempDir(), "kb")
	require.NoError(t, os.Symlink(real, kb))

	docs, errs := loadWithin(t, kb, LoadOptions{})
	assert.Equal(t, []string{"alias.md", "guide.md", "sub/absolute.md", "sub/inner.md", "sub/up.md"}, paths(docs))
	require.Len(t, errs, 4, "%q", errs)
	assert.Contains(t, errs[0].Error(), "dangling.md")
	assert.NotErrorIs(t, errs[0], ErrSkipped, "a dangling link is an error, not a choice")
	for i, name := range []string{"direct.md", "hop.md", "relative.md"} {
		assert.ErrorIs(t, errs[i+1], ErrSkipped)
		assert.Contains(t, errs[i+1].Error(), name+": link to "+filepath.Join(outside, "secret.md")+", outside the knowledge base, not followed")
	}

	idx, err := Open(t.TempDir(), DefaultOptions())
	require.NoError(t, err)
	defer idx.Close()
	_, err = idx.Sync(docs)
	require.NoError(t, err)
	res, err := idx.Search("password hunter2", 5)
	require.NoError(t, err)
	assert.Empty(t, res.Articles, "the outside file is not searchable")

	docs, errs = loadWithin(t, kb, LoadOptions{FollowExternalLinks: true})
	assert.Contains(t, paths(docs), "direct.md")
	assert.Contains(t, paths(docs), "hop.md")
	assert.Contains(t, paths(docs), "relative.md")
	require.Len(t, errs, 1, "only the dangling link is left")
}

func TestLoadingStopsWhenTheContextEnds(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.md": "# A", "b/c.md": "# C"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	docs, errs := LoadDirContext(ctx, dir, LoadOptions{})
	assert.Nil(t, docs, "no partial set that a Sync would take for the whole")
	require.Len(t, errs, 1)
	assert.ErrorIs(t, errs[0], context.Canceled)
	assert.Contains(t, errs[0].Error(), dir)

	docs, errs = LoadFSContext(ctx, os.DirFS(dir), ".")
	assert.Nil(t, docs)
	require.Len(t, errs, 1)
	assert.ErrorIs(t, errs[0], context.Canceled)
}
