package sqlite_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/graph"
	"github.com/sgrgraph/sgrgraph/graph/cachestore/cachetest"
	"github.com/sgrgraph/sgrgraph/graph/cachestore/sqlite"
)

// open returns a store in a new file under fresh, nested directories, which
// checks that Open creates them.
func open(t *testing.T, maxEntries int) graph.CacheStore {
	s, err := sqlite.Open(filepath.Join(t.TempDir(), "nested dir", "a?b", "cache.db"), maxEntries)
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, s.Close()) })
	return s
}

func TestConformance(t *testing.T) {
	cachetest.RunExternal(t, open)
}

// Two stores on one file stand for two processes, and a reopened file keeps
// what was set.
func TestTwoStoresOneFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache.db")
	first, err := sqlite.Open(path, 0)
	require.NoError(t, err)
	second, err := sqlite.Open(path, 0)
	require.NoError(t, err)
	require.NoError(t, first.Set(t.Context(), "k", []byte("v"), time.Hour))
	got, ok, err := second.Get(t.Context(), "k")
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, "v", string(got))
	require.NoError(t, first.Close())
	require.NoError(t, second.Close())

	again, err := sqlite.Open(path, 0)
	require.NoError(t, err)
	defer func() { require.NoError(t, again.Close()) }()
	_, ok, err = again.Get(t.Context(), "k")
	require.NoError(t, err)
	require.True(t, ok)
}

func TestOpenErrors(t *testing.T) {
	_, err := sqlite.Open("", 0)
	require.EqualError(t, err, "cachestore/sqlite: open: path is empty")
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, nil, 0o600))
	_, err = sqlite.Open(filepath.Join(file, "cache.db"), 0) // its directory is a file
	require.ErrorContains(t, err, "cachestore/sqlite: open")
}

func TestDefaultPath(t *testing.T) {
	got, err := sqlite.DefaultPath()
	require.NoError(t, err)
	dir, err := os.UserCacheDir()
	require.NoError(t, err)
	require.Equal(t, filepath.Join(dir, "sgrgraph", "cache.db"), got)
}
