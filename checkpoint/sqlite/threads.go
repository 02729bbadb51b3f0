package sqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/checkpoint/internal/rules"
)

func (s *store) Threads(ctx context.Context) ([]checkpoint.ThreadInfo, error) {
	ctx, cancel := rules.Context(ctx)
	defer cancel()
	// Each thread with the time of its latest row, the most recently written first.
	rows, err := s.db.QueryContext(ctx, `
		SELECT c.thread, g.n, c.created
		FROM checkpoints c
		JOIN (SELECT thread, COUNT(*) AS n, MAX(seq) AS top FROM checkpoints GROUP BY thread) g
		  ON c.thread = g.thread AND c.seq = g.top
		ORDER BY c.created DESC, c.thread`)
	if err != nil {
		return nil, wrap("threads", err)
	}
	defer func() { _ = rows.Close() }()
	var out []checkpoint.ThreadInfo
	for rows.Next() {
		var info checkpoint.ThreadInfo
		var created int64
		if err := rows.Scan(&info.Thread, &info.Checkpoints, &created); err != nil {
			return nil, wrap("threads", err)
		}
		info.Latest = time.Unix(0, created).UTC()
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
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, wrap("prune", err)
	}
	defer func() { _ = tx.Rollback() }()
	removed := int64(0)
	// "? = ''" selects every thread with the same statement.
	if r.MaxAge > 0 {
		cutoff := time.Now().Add(-r.MaxAge).UnixNano()
		n, err := exec(ctx, tx, `DELETE FROM checkpoints WHERE (? = '' OR thread = ?) AND created < ?`, thread, thread, cutoff)
		if err != nil {
			return 0, wrap("prune", err)
		}
		removed += n
	}
	if r.KeepLast > 0 {
		n, err := exec(ctx, tx, `
			DELETE FROM checkpoints WHERE (thread, seq) IN (
				SELECT thread, seq FROM (
					SELECT thread, seq, ROW_NUMBER() OVER (PARTITION BY thread ORDER BY seq DESC) AS rank
					FROM checkpoints WHERE ? = '' OR thread = ?)
				WHERE rank > ?)`, thread, thread, r.KeepLast)
		if err != nil {
			return 0, wrap("prune", err)
		}
		removed += n
	}
	if err := tx.Commit(); err != nil {
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
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if _, err := s.db.ExecContext(ctx, `DELETE FROM checkpoints WHERE thread = ?`, thread); err != nil {
		return wrap("delete", err)
	}
	return nil
}

// exec runs a statement in tx and returns how many rows it changed.
func exec(ctx context.Context, tx *sql.Tx, query string, args ...any) (int64, error) {
	res, err := tx.ExecContext(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
