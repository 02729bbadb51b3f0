// Package sqlite is a checkpoint.Store in one SQLite file, on the pure-Go
// modernc.org/sqlite driver (no cgo): durable threads for a single machine.
//
// The file runs in WAL mode, so readers never wait for the writer, with a
// busy timeout for other processes that write the same file, and
// synchronous=NORMAL: a crash of the program loses nothing committed, a power
// loss at most the last commits, and the file never corrupts. Each checkpoint
// is one row holding that step's state; history is never rewritten.
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

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/checkpoint/internal/rules"
)

// schema is one table keyed by (thread, id); seq orders a thread's rows in
// Put order and its unique index serves Latest and List.
const schema = `
CREATE TABLE IF NOT EXISTS checkpoints (
	thread  TEXT    NOT NULL,
	id      TEXT    NOT NULL,
	seq     INTEGER NOT NULL,
	created INTEGER NOT NULL, -- Metadata.Time in Unix nanoseconds, for MaxAge
	header  BLOB    NOT NULL, -- JSON: parent, next, interrupts, metadata
	state   BLOB    NOT NULL,
	PRIMARY KEY (thread, id)
);
CREATE UNIQUE INDEX IF NOT EXISTS checkpoints_order ON checkpoints (thread, seq);
-- The leases of TryLock: a row per thread held, until freed or expired.
CREATE TABLE IF NOT EXISTS thread_locks (
	thread  TEXT    PRIMARY KEY,
	owner   TEXT    NOT NULL,
	token   TEXT    NOT NULL, -- tells this lease from the thread's later ones
	expires INTEGER NOT NULL  -- Unix milliseconds
);
`

// busyTimeoutMS is how long a writer waits for another process's write.
const busyTimeoutMS = 10000

// putSQL inserts a checkpoint as the thread's next one; its ID is the
// given one (?2) or one made from the next seq (rules.IDFormat) and ?3.
const putSQL = `
INSERT INTO checkpoints (thread, id, seq, created, header, state)
SELECT ?1, COALESCE(?2, printf('` + rules.IDFormat + `', next, ?3)), next, ?4, ?5, ?6
FROM (SELECT COALESCE(MAX(seq), 0) + 1 AS next FROM checkpoints WHERE thread = ?1)
RETURNING id`

type store struct {
	db                *sql.DB
	put, latest, byID *sql.Stmt // compiled once: SQLite compiling a statement costs as much as running it
	// writeMu queues this process's writers in Go rather than in SQLite's
	// busy handler, which sleeps in steps of up to 100 ms.
	writeMu sync.Mutex
}

// DefaultPath returns the per-user database file:
// os.UserCacheDir()/sgrgraph/threads.db.
func DefaultPath() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("checkpoint/sqlite: default path: %w", err)
	}
	return filepath.Join(dir, "sgrgraph", "threads.db"), nil
}

// Open opens (creating it and its parent directories if needed) the database
// file at path.
func Open(path string) (checkpoint.Store, error) {
	if path == "" {
		return nil, errors.New("checkpoint/sqlite: open: path is empty")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("checkpoint/sqlite: open: %w", err)
	}
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeoutMS))
	q.Add("_pragma", "journal_mode(WAL)")
	// NORMAL is durable against crashes of the program in WAL mode; only a
	// power loss may drop the last commits, never corrupt the file.
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Set("_txlock", "immediate") // take the write lock at BEGIN, where busy_timeout applies
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("checkpoint/sqlite: open %s: %w", path, err)
	}
	ctx, cancel := rules.Context(context.Background())
	defer cancel()
	if _, err := db.ExecContext(ctx, schema); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("checkpoint/sqlite: open %s: create table: %w", path, err)
	}
	s := &store{db: db}
	for _, p := range []struct {
		stmt **sql.Stmt
		sql  string
	}{
		{&s.put, putSQL},
		{&s.latest, `SELECT id, header, state FROM checkpoints WHERE thread = ? ORDER BY seq DESC LIMIT 1`},
		{&s.byID, `SELECT id, header, state FROM checkpoints WHERE thread = ? AND id = ?`},
	} {
		if *p.stmt, err = db.PrepareContext(ctx, p.sql); err != nil {
			_ = s.Close()
			return nil, fmt.Errorf("checkpoint/sqlite: open %s: %w", path, err)
		}
	}
	return s, nil
}

func (s *store) Close() error {
	var errs []error
	for _, st := range []*sql.Stmt{s.put, s.latest, s.byID} {
		if st != nil {
			errs = append(errs, st.Close())
		}
	}
	if err := errors.Join(append(errs, s.db.Close())...); err != nil {
		return fmt.Errorf("checkpoint/sqlite: close: %w", err)
	}
	return nil
}

// wrap names the store and the operation in err.
func wrap(op string, err error) error {
	return fmt.Errorf("checkpoint/sqlite: %s: %w", op, err)
}
