package postgres

import (
	"context"
	"math"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sgrgraph/sgrgraph/checkpoint"
)

func (s *store) Threads(ctx context.Context) ([]checkpoint.ThreadInfo, error) {
	// Each thread with the time of its latest row, the most recently written first.
	rows, err := s.pool.Query(ctx, `
		SELECT c.thread, g.n, c.created
		FROM sgrgraph_checkpoints c
		JOIN (SELECT thread, COUNT(*) AS n, MAX(seq) AS top FROM sgrgraph_checkpoints GROUP BY thread) g
		  ON c.thread = g.thread AND c.seq = g.top
		ORDER BY c.created DESC, c.thread COLLATE "C"`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []checkpoint.ThreadInfo
	for rows.Next() {
		var info checkpoint.ThreadInfo
		var n, created int64
		if err := rows.Scan(&info.Thread, &n, &created); err != nil {
			return nil, err
		}
		info.Checkpoints, info.Latest = int(n), time.Unix(0, created).UTC()
		out = append(out, info)
	}
	return out, rows.Err()
}

func (s *store) Prune(ctx context.Context, thread string, r checkpoint.Retention) (int, error) {
	cutoff, keep := int64(math.MinInt64), int64(math.MaxInt64)
	if r.MaxAge > 0 {
		cutoff = time.Now().Add(-r.MaxAge).UnixNano()
	}
	if r.KeepLast > 0 {
		keep = int64(r.KeepLast)
	}
	// Each thread apart, under its lock, as its Puts are: a thread's writers
	// count its pieces one at a time.
	threads := []string{thread}
	if thread == "" {
		rows, err := s.pool.Query(ctx, `
			SELECT thread FROM sgrgraph_checkpoints WHERE created < $1
			UNION SELECT thread FROM sgrgraph_checkpoints GROUP BY thread HAVING count(*) > $2`, cutoff, keep)
		if err != nil {
			return 0, err
		}
		if threads, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
			return 0, err
		}
	}
	removed := 0
	for _, th := range threads {
		n, err := s.pruneThread(ctx, th, cutoff, keep)
		if err != nil {
			return removed, err
		}
		removed += n
	}
	return removed, nil
}

// pruneThread removes the checkpoints of thread older than cutoff or
// beyond the keep newest, and frees the pieces no checkpoint lists any more.
func (s *store) pruneThread(ctx context.Context, thread string, cutoff, keep int64) (int, error) {
	removed := 0
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		removed = 0
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashtext($2))`, lockClass, thread); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `
			DELETE FROM sgrgraph_checkpoints WHERE thread = $1 AND (created < $2
				OR seq <= (SELECT seq FROM sgrgraph_checkpoints WHERE thread = $1 ORDER BY seq DESC LIMIT 1 OFFSET $3))
			RETURNING fields`, thread, cutoff, keep)
		if err != nil {
			return err
		}
		var listed []string // the pieces the removed rows listed, as often as they did
		var fields []string
		_, err = pgx.ForEachRow(rows, []any{&fields}, func() error {
			removed++
			listed = append(listed, fields...)
			return nil
		})
		if err != nil || len(listed) == 0 {
			return err
		}
		rows, err = tx.Query(ctx, `
			UPDATE sgrgraph_state_refs r SET refs = r.refs - c.n
			FROM (SELECT h, count(*) AS n FROM unnest($2::text[]) AS h GROUP BY h) c
			WHERE r.thread = $1 AND r.hash = c.h
			RETURNING r.hash, r.refs`, thread, listed)
		if err != nil {
			return err
		}
		var gone []string // the pieces no row lists any more
		var h string
		var refs int64
		if _, err := pgx.ForEachRow(rows, []any{&h, &refs}, func() error {
			if refs <= 0 {
				gone = append(gone, h)
			}
			return nil
		}); err != nil {
			return err
		}
		if len(gone) == 0 {
			return nil
		}
		batch := &pgx.Batch{}
		batch.Queue(`DELETE FROM sgrgraph_state_refs WHERE thread = $1 AND hash = ANY($2)`, thread, gone)
		batch.Queue(`DELETE FROM sgrgraph_state_pieces WHERE thread = $1 AND hash = ANY($2)`, thread, gone)
		return tx.SendBatch(ctx, batch).Close()
	})
	return removed, err
}

func (s *store) Delete(ctx context.Context, thread string) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		batch := &pgx.Batch{}
		batch.Queue(`SELECT pg_advisory_xact_lock($1, hashtext($2))`, lockClass, thread)
		for _, table := range []string{"sgrgraph_checkpoints", "sgrgraph_state_refs", "sgrgraph_state_pieces"} {
			batch.Queue(`DELETE FROM `+table+` WHERE thread = $1`, thread)
		}
		return tx.SendBatch(ctx, batch).Close()
	})
}

func (s *store) Stored(ctx context.Context, thread string) (checkpoint.Stored, error) {
	var st checkpoint.Stored
	err := s.pool.QueryRow(ctx, `SELECT count(*), COALESCE(sum(length(data)), 0) FROM sgrgraph_state_pieces WHERE $1 = '' OR thread = $1`,
		thread).Scan(&st.Pieces, &st.Bytes)
	return st, err
}
