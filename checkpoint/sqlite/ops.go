package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/checkpoint/internal/blob"
	"github.com/sgrgraph/sgrgraph/checkpoint/internal/record"
	"github.com/sgrgraph/sgrgraph/checkpoint/internal/rules"
)

func (s *store) Put(ctx context.Context, cp checkpoint.Checkpoint) (checkpoint.Checkpoint, error) {
	cp, header, err := record.ForPut(cp, time.Now())
	if err != nil {
		return checkpoint.Checkpoint{}, wrap("put", err)
	}
	pieces, manifest := record.Pieces(cp)
	state, fields := record.State(cp), any(nil) // NULL: the state is whole, as before pieces
	if manifest != nil {
		state, fields = []byte{}, blob.EncodeManifest(manifest)
	}
	ctx, cancel := rules.Context(ctx)
	defer cancel()
	var id any // NULL: the statement makes the ID from the thread's next seq
	if cp.ID != "" {
		id = cp.ID
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return checkpoint.Checkpoint{}, wrap("put", err)
	}
	defer func() { _ = tx.Rollback() }()
	ctx = inTx(ctx)
	written, size := 0, len(header)+len(state)
	if manifest != nil {
		added, bytes, err := s.putPieces(ctx, tx, cp.Thread, pieces)
		if err != nil {
			return checkpoint.Checkpoint{}, wrap("put", err)
		}
		written, size = added, size+bytes+len(fields.(string))
	}
	// The next seq, the ID made from it and the row in one statement,
	// compiled once when the store opened.
	err = tx.StmtContext(ctx, s.put).QueryRowContext(ctx, cp.Thread, id, rules.Suffix(), cp.Metadata.Time.UnixNano(), header, state, fields).Scan(&cp.ID)
	if err != nil {
		if se := (*sqlite.Error)(nil); errors.As(err, &se) && (se.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY || se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE) {
			err = fmt.Errorf("thread %q already has checkpoint %q", cp.Thread, cp.ID)
		}
		return checkpoint.Checkpoint{}, wrap("put", err)
	}
	if err := tx.Commit(); err != nil {
		return checkpoint.Checkpoint{}, wrap("put", err)
	}
	s.written.Add(written, size)
	return cp, nil
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

func (s *store) Get(ctx context.Context, thread, id string) (checkpoint.Checkpoint, error) {
	if err := errors.Join(rules.Key("thread", thread), rules.Key("id", id)); err != nil {
		return checkpoint.Checkpoint{}, wrap("get", err)
	}
	ctx, cancel := rules.Context(ctx)
	defer cancel()
	cps, err := read(thread, func() (*sql.Rows, error) { return s.byID.QueryContext(ctx, thread, id) })
	if err == nil && len(cps) == 0 {
		err = fmt.Errorf("thread %q checkpoint %q: %w", thread, id, checkpoint.ErrNotFound)
	}
	if err != nil {
		return checkpoint.Checkpoint{}, wrap("get", err)
	}
	return cps[0], nil
}

func (s *store) Latest(ctx context.Context, thread string) (checkpoint.Checkpoint, error) {
	if err := rules.Key("thread", thread); err != nil {
		return checkpoint.Checkpoint{}, wrap("latest", err)
	}
	ctx, cancel := rules.Context(ctx)
	defer cancel()
	cps, err := read(thread, func() (*sql.Rows, error) { return s.latest.QueryContext(ctx, thread) })
	if err == nil && len(cps) == 0 {
		err = fmt.Errorf("thread %q: %w", thread, checkpoint.ErrNotFound)
	}
	if err != nil {
		return checkpoint.Checkpoint{}, wrap("latest", err)
	}
	return cps[0], nil
}

// listSQL reads a page of a thread's checkpoints older than seq ?2.
var listSQL = reading(`WHERE thread = ?1 AND seq < ?2 ORDER BY seq DESC LIMIT ?3`)

func (s *store) List(ctx context.Context, thread string, o checkpoint.ListOptions) ([]checkpoint.Checkpoint, error) {
	if err := rules.List(thread, o.Limit, o.Before); err != nil {
		return nil, wrap("list", err)
	}
	ctx, cancel := rules.Context(ctx)
	defer cancel()
	before := int64(1<<63 - 1)
	if o.Before != "" {
		err := s.db.QueryRowContext(ctx, `SELECT seq FROM checkpoints WHERE thread = ? AND id = ?`, thread, o.Before).Scan(&before)
		if errors.Is(err, sql.ErrNoRows) {
			err = fmt.Errorf("thread %q before %q: %w", thread, o.Before, checkpoint.ErrNotFound)
		}
		if err != nil {
			return nil, wrap("list", err)
		}
	}
	limit := int64(o.Limit)
	if limit == 0 {
		limit = -1 // SQLite: no limit
	}
	if o.NoState {
		out, err := heads(thread, func() (*sql.Rows, error) { return s.heads.QueryContext(ctx, thread, before, limit) })
		if err != nil {
			return nil, wrap("list", err)
		}
		return out, nil
	}
	out, err := read(thread, func() (*sql.Rows, error) { return s.db.QueryContext(ctx, listSQL, thread, before, limit) })
	if err != nil {
		return nil, wrap("list", err)
	}
	return out, nil
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
	var out []checkpoint.Checkpoint
	for rows.Next() {
		var id string
		var header []byte
		if err := rows.Scan(&id, &header); err != nil {
			return nil, err
		}
		cp, err := record.Decode(thread, id, header, nil)
		if err != nil {
			return nil, err
		}
		out = append(out, record.WithoutState(cp))
	}
	return out, rows.Err()
}
