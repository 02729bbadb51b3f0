// Package sqlite is a memory.Store in one SQLite file, on the pure-Go
// modernc.org/sqlite driver (no cgo): durable long-term memory for a single
// machine.
//
// The file runs in WAL mode with a busy timeout and synchronous=NORMAL, as
// the checkpoint store does: readers never wait for the writer, and a crash
// of the program loses nothing committed. Each item is one row; a namespace
// is stored encoded so that a prefix is a range of the primary key.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/sgrgraph/sgrgraph/memory"
	"github.com/sgrgraph/sgrgraph/memory/internal/rules"
)

// schema is one table keyed by (namespace, key). The partial index on
// expires serves the purge every Put runs, which finds nothing most times.
const schema = `
CREATE TABLE IF NOT EXISTS memories (
	namespace TEXT    NOT NULL, -- each part ended by U+001F (rules.Encode)
	key       TEXT    NOT NULL,
	value     BLOB    NOT NULL, -- the JSON object, byte for byte
	created   INTEGER NOT NULL, -- Unix nanoseconds
	updated   INTEGER NOT NULL,
	expires   INTEGER NOT NULL, -- Unix nanoseconds; 0: never
	PRIMARY KEY (namespace, key)
);
CREATE INDEX IF NOT EXISTS memories_expires ON memories (expires) WHERE expires > 0;
`

// busyTimeoutMS is how long a writer waits for another process's write.
const busyTimeoutMS = 10000

type store struct {
	db *sql.DB
	// writeMu queues this process's writers in Go rather than in SQLite's
	// busy handler, which sleeps in steps of up to 100 ms.
	writeMu sync.Mutex
}

// DefaultPath returns the per-user database file:
// os.UserCacheDir()/sgrgraph/memory.db.
func DefaultPath() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("memory/sqlite: default path: %w", err)
	}
	return filepath.Join(dir, "sgrgraph", "memory.db"), nil
}

// Open opens (creating it and its parent directories if needed) the database
// file at path. The file may be the checkpoint store's: the tables differ.
func Open(path string) (memory.Store, error) {
	if path == "" {
		return nil, errors.New("memory/sqlite: open: path is empty")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("memory/sqlite: open: %w", err)
	}
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeoutMS))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)") // durable against crashes of the program in WAL mode
	q.Set("_txlock", "immediate")           // take the write lock at BEGIN, where busy_timeout applies
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("memory/sqlite: open %s: %w", path, err)
	}
	ctx, cancel := rules.Context(context.Background())
	defer cancel()
	if _, err := db.ExecContext(ctx, schema); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("memory/sqlite: open %s: create table: %w", path, err)
	}
	return memory.NewStore("sqlite", &store{db: db}), nil
}

func (s *store) Close() error { return s.db.Close() }
