package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/checkpoint/internal/driven"
	"github.com/sgrgraph/sgrgraph/checkpoint/internal/record"
	"github.com/sgrgraph/sgrgraph/checkpoint/internal/rules"
)

func (s *store) Put(ctx context.Context, r driven.Record) (string, int, int, error) {
	cp, header, state, pieces, manifest := r.Checkpoint, r.Header, r.State, r.Pieces, r.Manifest
	var written, size int
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		written, size = 0, len(header)+len(state)
		// The lock makes "MAX(seq) + 1" safe against the thread's other writers;
		// the next statement sees their commits (READ COMMITTED). One round
		// trip: the lock, the next seq, and the counting of the pieces the
		// thread has, which returns them.
		var seq int64
		have := map[string]bool{}
		batch := &pgx.Batch{}
		batch.Queue(`SELECT pg_advisory_xact_lock($1, hashtext($2))`, lockClass, cp.Thread)
		batch.Queue(`SELECT COALESCE(MAX(seq), 0) + 1 FROM sgrgraph_checkpoints WHERE thread = $1`, cp.Thread).QueryRow(func(row pgx.Row) error {
			return row.Scan(&seq)
		})
		if manifest != nil {
			batch.Queue(`
				UPDATE sgrgraph_state_refs r SET refs = r.refs + c.n
				FROM (SELECT h, count(*) AS n FROM unnest($2::text[]) AS h GROUP BY h) c
				WHERE r.thread = $1 AND r.hash = c.h
				RETURNING r.hash`, cp.Thread, manifest).Query(func(rows pgx.Rows) error {
				var h string
				_, err := pgx.ForEachRow(rows, []any{&h}, func() error { have[h] = true; return nil })
				return err
			})
		}
		if err := tx.SendBatch(ctx, batch).Close(); err != nil {
			return err
		}
		if cp.ID == "" {
			cp.ID = rules.NewID(seq)
		}
		// One round trip more: the pieces the thread lacks, and the row.
		batch = &pgx.Batch{}
		if manifest != nil {
			distinct, counts := record.Distinct(pieces)
			var hashes []string
			var data [][]byte
			var refs []int64
			for _, p := range distinct {
				if !have[p.Hash] {
					hashes, data, refs = append(hashes, p.Hash), append(data, p.Data), append(refs, int64(counts[p.Hash]))
					written, size = written+1, size+len(p.Data)
				}
			}
			if len(hashes) > 0 {
				batch.Queue(`INSERT INTO sgrgraph_state_pieces (thread, hash, data) SELECT $1, h, d FROM unnest($2::text[], $3::bytea[]) AS x(h, d)`,
					cp.Thread, hashes, data)
				batch.Queue(`INSERT INTO sgrgraph_state_refs (thread, hash, refs) SELECT $1, h, n FROM unnest($2::text[], $3::bigint[]) AS x(h, n)`,
					cp.Thread, hashes, refs)
			}
			for _, h := range manifest {
				size += len(h) + 1
			}
		}
		batch.Queue(`INSERT INTO sgrgraph_checkpoints (thread, id, seq, created, header, state, fields) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
			cp.Thread, cp.ID, seq, cp.Metadata.Time.UnixNano(), header, state, manifest)
		err := tx.SendBatch(ctx, batch).Close()
		if pe := (*pgconn.PgError)(nil); errors.As(err, &pe) && pe.Code == "23505" && pe.TableName == "sgrgraph_checkpoints" { // unique_violation
			return driven.ErrExists
		}
		return err
	})
	return cp.ID, written, size, err
}

// readSQL reads checkpoints of thread $1 (the rows of the subquery c) with
// their pieces: a row per piece, in c's order; a checkpoint whose state is
// whole has one row with NULL pieces. One statement, so a prune in between
// cannot take the pieces of a checkpoint it read.
const readSQL = `
SELECT c.id, c.header, c.state, c.fields, p.hash, p.data
FROM (SELECT seq, id, header, state, fields FROM sgrgraph_checkpoints %s) AS c
LEFT JOIN LATERAL (SELECT hash, data FROM sgrgraph_state_pieces WHERE thread = $1 AND hash = ANY(c.fields)) AS p ON true
ORDER BY c.seq DESC`

var (
	latestSQL = fmt.Sprintf(readSQL, `WHERE thread = $1 ORDER BY seq DESC LIMIT 1`)
	getSQL    = fmt.Sprintf(readSQL, `WHERE thread = $1 AND id = $2`)
	listSQL   = fmt.Sprintf(readSQL, `WHERE thread = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3`)
)

func (s *store) Get(ctx context.Context, thread, id string) (checkpoint.Checkpoint, bool, error) {
	return first(s.read(ctx, thread, getSQL, thread, id))
}

func (s *store) Latest(ctx context.Context, thread string) (checkpoint.Checkpoint, bool, error) {
	return first(s.read(ctx, thread, latestSQL, thread))
}

// first returns the first of cps, or false when there is none.
func first(cps []checkpoint.Checkpoint, err error) (checkpoint.Checkpoint, bool, error) {
	if err != nil || len(cps) == 0 {
		return checkpoint.Checkpoint{}, false, err
	}
	return cps[0], true, nil
}

func (s *store) List(ctx context.Context, thread string, o checkpoint.ListOptions) ([]checkpoint.Checkpoint, bool, error) {
	before := int64(1<<63 - 1)
	if o.Before != "" {
		err := s.pool.QueryRow(ctx, `SELECT seq FROM sgrgraph_checkpoints WHERE thread = $1 AND id = $2`, thread, o.Before).Scan(&before)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil, false, nil
		}
		if err != nil {
			return nil, false, err
		}
	}
	var limit *int // NULL: LIMIT ALL
	if o.Limit > 0 {
		limit = &o.Limit
	}
	var out []checkpoint.Checkpoint
	var err error
	if o.NoState {
		out, err = s.heads(ctx, thread, before, limit)
	} else {
		out, err = s.read(ctx, thread, listSQL, thread, before, limit)
	}
	return out, err == nil, err
}

// read runs a query of readSQL's form and rebuilds its checkpoints.
func (s *store) read(ctx context.Context, thread, query string, args ...any) ([]checkpoint.Checkpoint, error) {
	rows, err := s.pool.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	c := record.Collector{Thread: thread}
	for rows.Next() {
		var id string
		var header, state, data []byte
		var fields []string
		var hash *string
		if err := rows.Scan(&id, &header, &state, &fields, &hash, &data); err != nil {
			return nil, err
		}
		var manifest func() ([]string, error)
		if fields != nil {
			manifest = func() ([]string, error) { return fields, nil }
		}
		var h string
		if hash != nil {
			h = *hash
		}
		if err := c.Add(id, header, state, manifest, h, data); err != nil {
			return nil, err
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return c.Checkpoints()
}

// heads reads the rows of a page of List without their states.
func (s *store) heads(ctx context.Context, thread string, before int64, limit *int) ([]checkpoint.Checkpoint, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, header FROM sgrgraph_checkpoints WHERE thread = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3`,
		thread, before, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return record.Heads(thread, rows)
}
