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
	"github.com/sgrgraph/sgrgraph/checkpoint/internal/record"
	"github.com/sgrgraph/sgrgraph/checkpoint/internal/rules"
)

func (s *store) Put(ctx context.Context, cp checkpoint.Checkpoint) (checkpoint.Checkpoint, error) {
	cp, header, err := record.ForPut(cp, time.Now())
	if err != nil {
		return checkpoint.Checkpoint{}, wrap("put", err)
	}
	ctx, cancel := rules.Context(ctx)
	defer cancel()
	var id any // NULL: the statement makes the ID from the thread's next seq
	if cp.ID != "" {
		id = cp.ID
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	// One statement: the next seq, the ID made from it and the row, in
	// SQLite's own transaction, compiled once when the store opened.
	err = s.put.QueryRowContext(ctx, cp.Thread, id, rules.Suffix(), cp.Metadata.Time.UnixNano(), header, record.State(cp)).Scan(&cp.ID)
	if err != nil {
		if se := (*sqlite.Error)(nil); errors.As(err, &se) && (se.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY || se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE) {
			err = fmt.Errorf("thread %q already has checkpoint %q", cp.Thread, cp.ID)
		}
		return checkpoint.Checkpoint{}, wrap("put", err)
	}
	return cp, nil
}

func (s *store) Get(ctx context.Context, thread, id string) (checkpoint.Checkpoint, error) {
	if err := errors.Join(rules.Key("thread", thread), rules.Key("id", id)); err != nil {
		return checkpoint.Checkpoint{}, wrap("get", err)
	}
	ctx, cancel := rules.Context(ctx)
	defer cancel()
	row := s.byID.QueryRowContext(ctx, thread, id)
	cp, err := scan(thread, row)
	if errors.Is(err, sql.ErrNoRows) {
		err = fmt.Errorf("thread %q checkpoint %q: %w", thread, id, checkpoint.ErrNotFound)
	}
	if err != nil {
		return checkpoint.Checkpoint{}, wrap("get", err)
	}
	return cp, nil
}

func (s *store) Latest(ctx context.Context, thread string) (checkpoint.Checkpoint, error) {
	if err := rules.Key("thread", thread); err != nil {
		return checkpoint.Checkpoint{}, wrap("latest", err)
	}
	ctx, cancel := rules.Context(ctx)
	defer cancel()
	row := s.latest.QueryRowContext(ctx, thread)
	cp, err := scan(thread, row)
	if errors.Is(err, sql.ErrNoRows) {
		err = fmt.Errorf("thread %q: %w", thread, checkpoint.ErrNotFound)
	}
	if err != nil {
		return checkpoint.Checkpoint{}, wrap("latest", err)
	}
	return cp, nil
}

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
	rows, err := s.db.QueryContext(ctx, `SELECT id, header, state FROM checkpoints WHERE thread = ? AND seq < ? ORDER BY seq DESC LIMIT ?`,
		thread, before, limit)
	if err != nil {
		return nil, wrap("list", err)
	}
	defer func() { _ = rows.Close() }()
	var out []checkpoint.Checkpoint
	for rows.Next() {
		cp, err := scan(thread, rows)
		if err != nil {
			return nil, wrap("list", err)
		}
		out = append(out, cp)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap("list", err)
	}
	return out, nil
}

// scan reads a row of (id, header, state) of thread.
func scan(thread string, row interface{ Scan(...any) error }) (checkpoint.Checkpoint, error) {
	var id string
	var header, state []byte
	if err := row.Scan(&id, &header, &state); err != nil {
		return checkpoint.Checkpoint{}, err
	}
	return record.Decode(thread, id, header, state)
}
