// Package sqlite is a checkpoint.Store in one SQLite file, on the pure-Go
// modernc.org/sqlite driver (no cgo): durable threads for a single machine.
//
// The file runs in WAL mode, so readers never wait for the writer, with a
// busy timeout for other processes that write the same file, and
// synchronous=NORMAL: a crash of the program loses nothing committed, a power
// loss at most the last commits, and the file never corrupts. Each checkpoint
// is one row that lists the pieces of its state (fields); a piece is a row of
// state_pieces, kept once per thread, and state_refs counts the rows naming
// it (a small row apart, so that counting writes no piece's pages again), so
// a checkpoint writes only the pieces its thread does not have yet.
// History is never rewritten. A file written before pieces is upgraded when
// opened: its rows keep their states whole (fields is NULL) and read as before.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/checkpoint/internal/driven"
	"github.com/sgrgraph/sgrgraph/checkpoint/internal/rules"
	"github.com/sgrgraph/sgrgraph/internal/storeopen"
)

// schema is the checkpoints keyed by (thread, id), seq ordering a thread's
// rows in Put order (its unique index serves Latest and List), and the
// pieces of their states keyed by (thread, hash).
const schema = `
CREATE TABLE IF NOT EXISTS checkpoints (
	thread  TEXT    NOT NULL,
	id      TEXT    NOT NULL,
	seq     INTEGER NOT NULL,
	created INTEGER NOT NULL, -- Metadata.Time in Unix nanoseconds, for MaxAge
	header  BLOB    NOT NULL, -- JSON: parent, next, interrupts, metadata
	state   BLOB    NOT NULL, -- empty when fields lists the state's pieces
	fields  TEXT,             -- JSON array of the state's pieces in order; NULL: the state is whole in state
	PRIMARY KEY (thread, id)
);
CREATE UNIQUE INDEX IF NOT EXISTS checkpoints_order ON checkpoints (thread, seq);
CREATE INDEX IF NOT EXISTS checkpoints_created ON checkpoints (thread, created); -- MaxAge, for one thread
CREATE TABLE IF NOT EXISTS state_pieces (
	thread TEXT NOT NULL,
	hash   TEXT NOT NULL, -- blob.Hash of data
	data   BLOB NOT NULL,
	PRIMARY KEY (thread, hash)
);
CREATE TABLE IF NOT EXISTS state_refs (
	thread TEXT    NOT NULL,
	hash   TEXT    NOT NULL,
	refs   INTEGER NOT NULL, -- how many times the thread's rows list the piece
	PRIMARY KEY (thread, hash)
) WITHOUT ROWID;
-- The leases of TryLock: a row per thread held, until freed or expired.
CREATE TABLE IF NOT EXISTS thread_locks (
	thread  TEXT    PRIMARY KEY,
	owner   TEXT    NOT NULL,
	token   TEXT    NOT NULL, -- tells this lease from the thread's later ones
	expires INTEGER NOT NULL  -- Unix milliseconds
);
`

// putSQL inserts a checkpoint as the thread's next one; its ID is the
// given one (?2) or one made from the next seq (rules.IDFormat) and ?3.
const putSQL = `
INSERT INTO checkpoints (thread, id, seq, created, header, state, fields)
SELECT ?1, COALESCE(?2, printf('` + rules.IDFormat + `', next, ?3)), next, ?4, ?5, ?6, ?7
FROM (SELECT COALESCE(MAX(seq), 0) + 1 AS next FROM checkpoints WHERE thread = ?1)
RETURNING id`

// shareSQL counts a new row's naming ?3 times of the piece ?2, when the
// thread has it (a row changed; a statement per piece is quicker than one
// that joins them all).
const shareSQL = `UPDATE state_refs SET refs = refs + ?3 WHERE thread = ?1 AND hash = ?2`

// pieceSQL and refSQL add a piece the thread does not have.
const (
	pieceSQL = `INSERT INTO state_pieces (thread, hash, data) VALUES (?, ?, ?)`
	refSQL   = `INSERT INTO state_refs (thread, hash, refs) VALUES (?, ?, ?)`
)

// readSQL is the select that reads checkpoints of the thread ?1 (the rows
// of the subquery c) with their pieces: a row per piece, in c's order; a
// checkpoint whose state is whole has one row with NULL pieces.
const readSQL = `
SELECT c.id, c.header, c.state, c.fields, p.hash, p.data
FROM (SELECT seq, id, header, state, fields FROM checkpoints %s) AS c
LEFT JOIN json_each(c.fields) AS j
LEFT JOIN state_pieces AS p ON p.thread = ?1 AND p.hash = j.value
ORDER BY c.seq DESC`

// reading is readSQL for the checkpoints of thread ?1 that where selects.
func reading(where string) string { return fmt.Sprintf(readSQL, where) }

// store is the driven.Driver that keeps checkpoints in the file.
type store struct {
	db                *sql.DB
	put, latest, byID *sql.Stmt // compiled once: SQLite compiling a statement costs as much as running it
	share, piece, ref *sql.Stmt
	heads             *sql.Stmt // List's NoState
	prunableStmt      *sql.Stmt
	// The lease statements: a served session turn takes and frees a lease
	// on its thread and polls one on its stop thread every 200 ms.
	takeStmt, holderStmt, renewStmt, freeStmt *sql.Stmt
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
// file at path (storeopen.SQLite: WAL, synchronous=NORMAL, a busy timeout).
func Open(path string) (checkpoint.Store, error) {
	db, err := storeopen.SQLite(path)
	if err != nil {
		return nil, fmt.Errorf("checkpoint/sqlite: open: %w", err)
	}
	ctx, cancel := rules.Context(context.Background())
	defer cancel()
	if err := create(ctx, db); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("checkpoint/sqlite: open %s: create table: %w", path, err)
	}
	s := &store{db: db}
	for _, p := range []struct {
		stmt **sql.Stmt
		sql  string
	}{
		{&s.put, putSQL},
		{&s.share, shareSQL},
		{&s.piece, pieceSQL},
		{&s.ref, refSQL},
		{&s.latest, reading(`WHERE thread = ?1 ORDER BY seq DESC LIMIT 1`)},
		{&s.byID, reading(`WHERE thread = ?1 AND id = ?2`)},
		{&s.takeStmt, takeSQL},
		{&s.holderStmt, holderSQL},
		{&s.renewStmt, renewSQL},
		{&s.freeStmt, freeSQL},
		{&s.heads, `SELECT id, header FROM checkpoints WHERE thread = ?1 AND seq < ?2 ORDER BY seq DESC LIMIT ?3`},
		{&s.prunableStmt, `SELECT COALESCE((SELECT created < ?2 FROM checkpoints WHERE thread = ?1 ORDER BY thread, created LIMIT 1), 0)
			OR COALESCE((SELECT seq FROM checkpoints WHERE thread = ?1 ORDER BY seq DESC LIMIT 1)
				- (SELECT seq FROM checkpoints WHERE thread = ?1 ORDER BY seq LIMIT 1) >= ?3, 0)`},
	} {
		if *p.stmt, err = db.PrepareContext(ctx, p.sql); err != nil {
			_ = s.Close()
			return nil, fmt.Errorf("checkpoint/sqlite: open %s: %w", path, err)
		}
	}
	return driven.New("sqlite", s), nil
}

// create makes the tables, and adds the column fields to a file written
// before pieces, in one transaction: two processes opening an old file at
// once add it once.
func create(ctx context.Context, db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil) // BEGIN IMMEDIATE (_txlock)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	var old bool // a checkpoints table without fields
	err = tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pragma_table_info('checkpoints'))
		AND NOT EXISTS (SELECT 1 FROM pragma_table_info('checkpoints') WHERE name = 'fields')`).Scan(&old)
	if err != nil {
		return err
	}
	if old {
		if _, err := tx.ExecContext(ctx, `ALTER TABLE checkpoints ADD COLUMN fields TEXT`); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, schema); err != nil {
		return err
	}
	return tx.Commit()
}

func (s *store) Close() error {
	var errs []error
	for _, st := range []*sql.Stmt{s.put, s.share, s.piece, s.ref, s.latest, s.byID, s.heads, s.prunableStmt,
		s.takeStmt, s.holderStmt, s.renewStmt, s.freeStmt} {
		if st != nil {
			errs = append(errs, st.Close())
		}
	}
	return errors.Join(append(errs, s.db.Close())...)
}
