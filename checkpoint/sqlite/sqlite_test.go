package sqlite_test

import (
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
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

// oldSchema is the table as files written before pieces have it.
const oldSchema = `
CREATE TABLE checkpoints (
	thread  TEXT    NOT NULL,
	id      TEXT    NOT NULL,
	seq     INTEGER NOT NULL,
	created INTEGER NOT NULL,
	header  BLOB    NOT NULL,
	state   BLOB    NOT NULL,
	PRIMARY KEY (thread, id)
);
CREATE UNIQUE INDEX checkpoints_order ON checkpoints (thread, seq);
CREATE TABLE thread_locks (thread TEXT PRIMARY KEY, owner TEXT NOT NULL, token TEXT NOT NULL, expires INTEGER NOT NULL);
INSERT INTO checkpoints VALUES ('t', '0000000000000000001-aaaaaaaa', 1, 1735786800000000000,
	'{"next":["model"],"metadata":{"step":0,"node":"model","source":"loop","time":"2025-01-02T03:00:00Z","version":1}}',
	'{"messages":["before pieces"],"count":0}');
INSERT INTO checkpoints VALUES ('t', '0000000000000000002-bbbbbbbb', 2, 1735786860000000000,
	'{"parent":"0000000000000000001-aaaaaaaa","metadata":{"step":1,"source":"loop","time":"2025-01-02T03:01:00Z","version":1}}',
	'{"messages":["before pieces","again"],"count":1}');
`

// A file written before pieces opens (upgraded by two stores at once, as
// two processes would), reads its whole states back, and takes new
// checkpoints in pieces beside them; retention and Delete handle both.
func TestReadsFilesWrittenBeforePieces(t *testing.T) {
	path := filepath.Join(t.TempDir(), "threads.db")
	db, err := sql.Open("sqlite", path)
	require.NoError(t, err)
	_, err = db.Exec(oldSchema)
	require.NoError(t, err)
	require.NoError(t, db.Close())

	stores := make([]checkpoint.Store, 2)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range stores {
		wg.Go(func() { stores[i], errs[i] = sqlite.Open(path) })
	}
	wg.Wait()
	require.NoError(t, errors.Join(errs...))
	t.Cleanup(func() {
		for _, s := range stores {
			_ = s.Close()
		}
	})
	s := stores[0]
	old, err := s.Get(t.Context(), "t", "0000000000000000001-aaaaaaaa")
	require.NoError(t, err)
	require.Equal(t, `{"messages":["before pieces"],"count":0}`, string(old.State))
	require.Equal(t, []string{"model"}, old.Next)
	latest, err := stores[1].Latest(t.Context(), "t")
	require.NoError(t, err)
	require.Equal(t, `{"messages":["before pieces","again"],"count":1}`, string(latest.State))
	require.Equal(t, "0000000000000000001-aaaaaaaa", latest.Parent)

	next, err := s.Put(t.Context(), checkpoint.Checkpoint{Thread: "t", Parent: latest.ID, State: []byte(`{"messages":["after"],"count":2}`)})
	require.NoError(t, err)
	assert.Equal(t, "0000000000000000003", next.ID[:19], "the sequence goes on")
	list, err := s.List(t.Context(), "t", checkpoint.ListOptions{})
	require.NoError(t, err)
	require.Len(t, list, 3)
	assert.Equal(t, []string{`{"messages":["after"],"count":2}`, `{"messages":["before pieces","again"],"count":1}`, `{"messages":["before pieces"],"count":0}`},
		[]string{string(list[0].State), string(list[1].State), string(list[2].State)})

	n, err := s.Prune(t.Context(), "t", checkpoint.Retention{KeepLast: 1})
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	got, err := s.Latest(t.Context(), "t")
	require.NoError(t, err)
	assert.Equal(t, `{"messages":["after"],"count":2}`, string(got.State))
	require.NoError(t, s.Delete(t.Context(), "t"))
	st, err := s.(checkpoint.Meter).Stored(t.Context(), "")
	require.NoError(t, err)
	assert.Equal(t, checkpoint.Stored{}, st)
}
