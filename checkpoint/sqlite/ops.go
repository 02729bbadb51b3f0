package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/checkpoint/internal/blob"
	"github.com/sgrgraph/sgrgraph/checkpoint/internal/driven"
	"github.com/sgrgraph/sgrgraph/checkpoint/internal/record"
	"github.com/sgrgraph/sgrgraph/checkpoint/internal/rules"
)

func (s *store) Put(ctx context.Context, r driven.Record) (string, int, int, error) {
	cp, header, state, pieces, manifest := r.Checkpoint, r.Header, r.State, r.Pieces, r.Manifest
	fields := any(nil) // NULL: the state is whole, as before pieces
	if manifest != nil {
		fields = blob.EncodeManifest(manifest)
	}
	var id any // NULL: the statement makes the ID from the thread's next seq
	if cp.ID != "" {
		id = cp.ID
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return "", 0, 0, err
	}
	defer func() { _ = tx.Rollback() }()
	ctx = inTx(ctx)
	written, size := 0, len(header)+len(state)
	if manifest != nil {
		added, bytes, err := s.putPieces(ctx, tx, cp.Thread, pieces)
		if err != nil {
			return "", 0, 0, err
		}
		written, size = added, size+bytes+len(fields.(string))
	}
	// The next seq, the ID made from it and the row in one statement,
	// compiled once when the store opened.
	err = tx.StmtContext(ctx, s.put).QueryRowContext(ctx, cp.Thread, id, rules.Suffix(), cp.Metadata.Time.UnixNano(), header, state, fields).Scan(&cp.ID)
	if se := (*sqlite.Error)(nil); errors.As(err, &se) && (se.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY || se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE) {
		return "", 0, 0, driven.ErrExists
	}
	if err != nil {
		return "", 0, 0, err
	}
	if err := tx.Commit(); err != nil {
		return "", 0, 0, err
	}
	return cp.ID, written, size, nil
}

// inTx is the context of the statements of a write transaction: BEGIN
// IMMEDIATE waited for the lock with ctx, and the transaction is rolled back
// when ctx ends; the statements themselves, local and quick, go without
// ctx's cancellation, for which the driver starts a goroutine a statement.
func inTx(ctx context.Context) context.Context { return context.WithoutCancel(ctx) }

// putPieces counts the row's naming of the pieces the thread has and adds
// the others; it returns how many it added and their bytes.
func (s *store) putPieces(ctx context.Context, tx *sql.Tx, thread string, pieces []blob.Piece) (added, bytes int, err error) {
	distinct, counts := record.Distinct(pieces)
	share, insert, ref := tx.StmtContext(ctx, s.share), tx.StmtContext(ctx, s.piece), tx.StmtContext(ctx, s.ref)
	for _, p := range distinct {
		res, err := share.ExecContext(ctx, thread, p.Hash, counts[p.Hash])
		if err != nil {
			return 0, 0, err
		}
		if n, err := res.RowsAffected(); err != nil || n > 0 {
			if err != nil {
				return 0, 0, err
			}
			continue
		}
		if _, err := insert.ExecContext(ctx, thread, p.Hash, p.Data); err != nil {
			return 0, 0, err
		}
		if _, err := ref.ExecContext(ctx, thread, p.Hash, counts[p.Hash]); err != nil {
			return 0, 0, err
		}
		added, bytes = added+1, bytes+len(p.Data)
	}
	return added, bytes, nil
}

func (s *store) Get(ctx context.Context, thread, id string) (checkpoint.Checkpoint, bool, error) {
	return first(read(thread, func() (*sql.Rows, error) { return s.byID.QueryContext(ctx, thread, id) }))
}

func (s *store) Latest(ctx context.Context, thread string) (checkpoint.Checkpoint, bool, error) {
	return first(read(thread, func() (*sql.Rows, error) { return s.latest.QueryContext(ctx, thread) }))
}

// first returns the first of cps, or false when there is none.
func first(cps []checkpoint.Checkpoint, err error) (checkpoint.Checkpoint, bool, error) {
	if err != nil || len(cps) == 0 {
		return checkpoint.Checkpoint{}, false, err
	}
	return cps[0], true, nil
}

// listSQL reads a page of a thread's checkpoints older than seq ?2.
var listSQL = reading(`WHERE thread = ?1 AND seq < ?2 ORDER BY seq DESC LIMIT ?3`)

func (s *store) List(ctx context.Context, thread string, o checkpoint.ListOptions) ([]checkpoint.Checkpoint, bool, error) {
	before := int64(1<<63 - 1)
	if o.Before != "" {
		err := s.db.QueryRowContext(ctx, `SELECT seq FROM checkpoints WHERE thread = ? AND id = ?`, thread, o.Before).Scan(&before)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, false, nil
		}
		if err != nil {
			return nil, false, err
		}
	}
	limit := int64(o.Limit)
	if limit == 0 {
		limit = -1 // SQLite: no limit
	}
	var out []checkpoint.Checkpoint
	var err error
	if o.NoState {
		out, err = heads(thread, func() (*sql.Rows, error) { return s.heads.QueryContext(ctx, thread, before, limit) })
	} else {
		out, err = read(thread, func() (*sql.Rows, error) { return s.db.QueryContext(ctx, listSQL, thread, before, limit) })
	}
	return out, err == nil, err
}

// read runs a query of readSQL's form and rebuilds its checkpoints. One
// statement reads a checkpoint and its pieces, so a prune in between
// cannot take them.
func read(thread string, query func() (*sql.Rows, error)) ([]checkpoint.Checkpoint, error) {
	rows, err := query()
	if err != nil {
		return nil, err
	}
	defer func() { _ = rows.Close() }()
	c := record.Collector{Thread: thread}
	for rows.Next() {
		var id string
		var header, state, data []byte
		var fields, hash sql.NullString
		if err := rows.Scan(&id, &header, &state, &fields, &hash, &data); err != nil {
			return nil, err
		}
		var manifest func() ([]string, error)
		if fields.Valid {
			manifest = func() ([]string, error) { return blob.DecodeManifest(fields.String) }
		}
		if err := c.Add(id, header, state, manifest, hash.String, data); err != nil {
			return nil, err
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return c.Checkpoints()
}

// heads reads rows of (id, header) of thread.
func heads(thread string, query func() (*sql.Rows, error)) ([]checkpoint.Checkpoint, error) {
	rows, err := query()
	if err != nil {
		return nil, err
	}
	defer func() { _ = rows.Close() }()
	return record.Heads(thread, rows)
}
