package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

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
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		// The lock makes "MAX(seq) + 1" safe against the thread's other writers;
		// the next statement sees their commits (READ COMMITTED).
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashtext($2))`, lockClass, cp.Thread); err != nil {
			return err
		}
		var seq int64
		err := tx.QueryRow(ctx, `SELECT COALESCE(MAX(seq), 0) + 1 FROM sgrgraph_checkpoints WHERE thread = $1`, cp.Thread).Scan(&seq)
		if err != nil {
			return err
		}
		if cp.ID == "" {
			cp.ID = rules.NewID(seq)
		}
		_, err = tx.Exec(ctx, `INSERT INTO sgrgraph_checkpoints (thread, id, seq, created, header, state) VALUES ($1, $2, $3, $4, $5, $6)`,
			cp.Thread, cp.ID, seq, cp.Metadata.Time.UnixNano(), header, record.State(cp))
		if pe := (*pgconn.PgError)(nil); errors.As(err, &pe) && pe.Code == "23505" { // unique_violation
			return fmt.Errorf("thread %q already has checkpoint %q", cp.Thread, cp.ID)
		}
		return err
	})
	if err != nil {
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
	row := s.pool.QueryRow(ctx, `SELECT id, header, state FROM sgrgraph_checkpoints WHERE thread = $1 AND id = $2`, thread, id)
	cp, err := scan(thread, row)
	if errors.Is(err, pgx.ErrNoRows) {
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
	row := s.pool.QueryRow(ctx, `SELECT id, header, state FROM sgrgraph_checkpoints WHERE thread = $1 ORDER BY seq DESC LIMIT 1`, thread)
	cp, err := scan(thread, row)
	if errors.Is(err, pgx.ErrNoRows) {
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
		err := s.pool.QueryRow(ctx, `SELECT seq FROM sgrgraph_checkpoints WHERE thread = $1 AND id = $2`, thread, o.Before).Scan(&before)
		if errors.Is(err, pgx.ErrNoRows) {
			err = fmt.Errorf("thread %q before %q: %w", thread, o.Before, checkpoint.ErrNotFound)
		}
		if err != nil {
			return nil, wrap("list", err)
		}
	}
	var limit *int // NULL: LIMIT ALL
	if o.Limit > 0 {
		limit = &o.Limit
	}
	rows, err := s.pool.Query(ctx, `SELECT id, header, state FROM sgrgraph_checkpoints WHERE thread = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3`,
		thread, before, limit)
	if err != nil {
		return nil, wrap("list", err)
	}
	defer rows.Close()
	var out []checkpoint.Checkpoint
	for rows.Next() {
		cp, err := scan(thread, rows)
		if err != nil {
			return nil, wrap("list", err)
		}
		if o.NoState {
			cp = record.WithoutState(cp)
		}
		out = append(out, cp)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap("list", err)
	}
	return out, nil
}

// scan reads a row of (id, header, state) of thread.
func scan(thread string, row pgx.Row) (checkpoint.Checkpoint, error) {
	var id string
	var header, state []byte
	if err := row.Scan(&id, &header, &state); err != nil {
		return checkpoint.Checkpoint{}, err
	}
	return record.Decode(thread, id, header, state)
}
