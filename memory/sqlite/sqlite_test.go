package sqlite_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/memory"
	"github.com/sgrgraph/sgrgraph/memory/memorytest"
	"github.com/sgrgraph/sgrgraph/memory/sqlite"
)

// open returns a store in a new file under a fresh directory; the nested,
// missing directories check that Open creates them.
func open(t testing.TB) memory.Store {
	s, err := sqlite.Open(filepath.Join(t.TempDir(), "nested dir", "a?b", "memory.db"))
	require.NoError(t, err)
	return s
}

func TestConformance(t *testing.T) {
	memorytest.Run(t, func(t *testing.T) memory.Store { return open(t) })
}

// Two stores on one file stand for two processes: an item one writes, the
// other reads, and a reopened file keeps it.
func TestTwoStoresOneFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memory.db")
	first, err := sqlite.Open(path)
	require.NoError(t, err)
	second, err := sqlite.Open(path)
	require.NoError(t, err)
	it, err := first.Put(t.Context(), []string{"users", "ann"}, "drink", json.RawMessage(`{"drink":"tea"}`), 0)
	require.NoError(t, err)
	got, err := second.Get(t.Context(), []string{"users", "ann"}, "drink")
	require.NoError(t, err)
	require.True(t, it.Created.Equal(got.Created))
	require.NoError(t, first.Close())
	require.NoError(t, second.Close())

	again, err := sqlite.Open(path)
	require.NoError(t, err)
	defer func() { require.NoError(t, again.Close()) }()
	got, err = again.Get(t.Context(), []string{"users", "ann"}, "drink")
	require.NoError(t, err)
	require.Equal(t, `{"drink":"tea"}`, string(got.Value))
}

func TestDefaultPath(t *testing.T) {
	got, err := sqlite.DefaultPath()
	require.NoError(t, err)
	dir, err := os.UserCacheDir()
	require.NoError(t, err)
	require.Equal(t, filepath.Join(dir, "sgrgraph", "memory.db"), got)
}
