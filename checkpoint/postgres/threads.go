package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/checkpoint/internal/rules"
)

func (s *store) Threads(ctx context.Context) ([]checkpoint.ThreadInfo, error) {
	ctx, cancel := rules.Context(ctx)
	defer cancel()
	// Each thread with the time of its latest row, the most recently written first.
	rows, err := s.pool.Query(ctx, `
		SELECT c.thread, g.n, c.created
		FROM sgrgraph_checkpoints c
		JOIN (SELECT thread, COUNT(*) AS n, MAX(seq) AS top FROM sgrgraph_checkpoints GROUP BY thread) g
		  ON c.thread = g.thread AND c.seq = g.top
		ORDER BY c.created DESC, c.thread COLLATE "C"`)
	if err != nil {
		return nil, wrap("threads", err)
	}
	defer rows.Close()
	var out []checkpoint.ThreadInfo
	for rows.Next() {
		var info checkpoint.ThreadInfo
		var n, created int64
		if err := rows.Scan(&info.Thread, &n, &created); err != nil {
			return nil, wrap("threads", err)
		}
		info.Checkpoints, info.Latest = int(n), time.Unix(0, created).UTC()
		out = append(out, info)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap("threads", err)
	}
	return out, nil
}

func (s *store) Prune(ctx context.Context, thread string, r checkpoint.Retention) (int, error) {
	if err := rules.Retention(thread, r.KeepLast, r.MaxAge); err != nil {
		return 0, wrap("prune", err)
	}
	if r.KeepLast == 0 && r.MaxAge == 0 {
		return 0, nil
	}
	ctx, cancel := rules.Context(ctx)
	defer cancel()
	removed := int64(0)
	// "$1 = ''" selects every thread with the same statement.
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if r.MaxAge > 0 {
			cutoff := time.Now().Add(-r.MaxAge).UnixNano()
			tag, err := tx.Exec(ctx, `DELETE FROM sgrgraph_checkpoints WHERE ($1 = '' OR thread = $1) AND created < $2`, thread, cutoff)
			if err != nil {
				return err
			}
			removed += tag.RowsAffected()
		}
		if r.KeepLast > 0 {
			tag, err := tx.Exec(ctx, `
				DELETE FROM sgrgraph_checkpoints WHERE (thread, seq) IN (
					SELECT thread, seq FROM (
						SELECT thread, seq, row_number() OVER (PARTITION BY thread ORDER BY seq DESC) AS rank
						FROM sgrgraph_checkpoints WHERE $1 = '' OR thread = $1) ranked
					WHERE rank > $2)`, thread, r.KeepLast)
			if err != nil {
				return err
			}
			removed += tag.RowsAffected()
		}
		return nil
	})
	if err != nil {
		return 0, wrap("prune", err)
	}
	return int(removed), nil
}

func (s *store) Delete(ctx context.Context, thread string) error {
	if err := rules.Key("thread", thread); err != nil {
		return wrap("delete", err)
	}
	ctx, cancel := rules.Context(ctx)
	defer cancel()
	if _, err := s.pool.Exec(ctx, `DELETE FROM sgrgraph_checkpoints WHERE thread = $1`, thread); err != nil {
		return wrap("delete", err)
	}
	return nil
}
