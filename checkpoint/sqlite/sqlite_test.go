package sqlite_test

import (
	"database/sql"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/checkpoint/checkpointtest"
	"github.com/sgrgraph/sgrgraph/checkpoint/sqlite"
)

// open returns a store in a new file under a fresh directory; the nested,
// missing directories check that Open creates them.
func open(t testing.TB) checkpoint.Store {
	s, err := sqlite.Open(filepath.Join(t.TempDir(), "nested dir", "a?b", "threads.db"))
	require.NoError(t, err)
	return s
}

func TestConformance(t *testing.T) {
	checkpointtest.Run(t, func(t *testing.T) checkpoint.Store { return open(t) })
	// Two stores on one file stand for two processes.
	checkpointtest.RunShared(t, func(t *testing.T) (checkpoint.Store, checkpoint.Store) {
		path := filepath.Join(t.TempDir(), "threads.db")
		first, err := sqlite.Open(path)
		require.NoError(t, err)
		second, err := sqlite.Open(path)
		require.NoError(t, err)
		return first, second
	})
}

func BenchmarkSaveLoad(b *testing.B) {
	s := open(b)
	b.Cleanup(func() { _ = s.Close() })
	checkpointtest.BenchSaveLoad(b, s)
}

func TestReopenKeepsCheckpoints(t *testing.T) {
	path := filepath.Join(t.TempDir(), "threads.db")
	s, err := sqlite.Open(path)
	require.NoError(t, err)
	cp, err := s.Put(t.Context(), checkpoint.Checkpoint{Thread: "t", State: []byte(`{"n":1}`)})
	require.NoError(t, err)
	require.NoError(t, s.Close())

	s, err = sqlite.Open(path)
	require.NoError(t, err)
	defer func() { require.NoError(t, s.Close()) }()
	got, err := s.Get(t.Context(), "t", cp.ID)
	require.NoError(t, err)
	require.Equal(t, `{"n":1}`, string(got.State))
	var mode string
	db, err := sql.Open("sqlite", path)
	require.NoError(t, err)
	defer func() { _ = db.Close() }()
	require.NoError(t, db.QueryRow("PRAGMA journal_mode").Scan(&mode))
	require.Equal(t, "wal", mode, "the file stays in WAL mode")
}

// Two stores on one file stand for two processes: their writers meet in
// SQLite's locks, not in a shared mutex, and no Put may be lost.
func TestTwoStoresOneFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "threads.db")
	var stores []checkpoint.Store
	for range 2 {
		s, err := sqlite.Open(path)
		require.NoError(t, err)
		t.Cleanup(func() { _ = s.Close() })
		stores = append(stores, s)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for i := range 4 {
		wg.Go(func() {
			for range 25 {
				if _, err := stores[i%2].Put(t.Context(), checkpoint.Checkpoint{Thread: "t", State: []byte(`{}`)}); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	list, err := stores[0].List(t.Context(), "t", checkpoint.ListOptions{})
	require.NoError(t, err)
	require.Len(t, list, 100)
}

func TestDefaultPath(t *testing.T) {
	got, err := sqlite.DefaultPath()
	require.NoError(t, err)
	dir, err := os.UserCacheDir()
	require.NoError(t, err)
	require.Equal(t, filepath.Join(dir, "sgrgraph", "threads.db"), got)
}
