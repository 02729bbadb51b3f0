package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"time"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/checkpoint/internal/blob"
)

func (s *store) Threads(ctx context.Context) ([]checkpoint.ThreadInfo, error) {
	// Each thread with the time of its latest row, the most recently written first.
	rows, err := s.db.QueryContext(ctx, `
		SELECT c.thread, g.n, c.created
		FROM checkpoints c
		JOIN (SELECT thread, COUNT(*) AS n, MAX(seq) AS top FROM checkpoints GROUP BY thread) g
		  ON c.thread = g.thread AND c.seq = g.top
		ORDER BY c.created DESC, c.thread`)
	if err != nil {
		return nil, err
	}
	defer func() { _ = rows.Close() }()
	var out []checkpoint.ThreadInfo
	for rows.Next() {
		var info checkpoint.ThreadInfo
		var created int64
		if err := rows.Scan(&info.Thread, &info.Checkpoints, &created); err != nil {
			return nil, err
		}
		info.Latest = time.Unix(0, created).UTC()
		out = append(out, info)
	}
	return out, rows.Err()
}

func (s *store) Prune(ctx context.Context, thread string, r checkpoint.Retention) (int, error) {
	if thread != "" { // after each turn, as a rule: a read says whether to write
		due, err := s.prunable(ctx, thread, r)
		if err != nil || !due {
			return 0, err
		}
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer func() { _ = tx.Rollback() }()
	ctx = inTx(ctx)
	freed := map[string][]string{} // thread → the pieces its removed rows listed
	removed := 0
	// "? = ''" selects every thread with the same statement.
	if r.MaxAge > 0 {
		cutoff := time.Now().Add(-r.MaxAge).UnixNano()
		n, err := remove(ctx, tx, freed, `DELETE FROM checkpoints WHERE (?1 = '' OR thread = ?1) AND created < ?2 RETURNING thread, fields`, thread, cutoff)
		if err != nil {
			return 0, err
		}
		removed += n
	}
	if r.KeepLast > 0 {
		query := `
			DELETE FROM checkpoints WHERE (thread, seq) IN (
				SELECT thread, seq FROM (
					SELECT thread, seq, ROW_NUMBER() OVER (PARTITION BY thread ORDER BY seq DESC) AS rank
					FROM checkpoints)
				WHERE rank > ?2)
			RETURNING thread, fields`
		if thread != "" { // one thread: a walk down its index, no window over its rows
			query = `
				DELETE FROM checkpoints WHERE thread = ?1
				AND seq <= (SELECT seq FROM checkpoints WHERE thread = ?1 ORDER BY seq DESC LIMIT 1 OFFSET ?2)
				RETURNING thread, fields`
		}
		n, err := remove(ctx, tx, freed, query, thread, r.KeepLast)
		if err != nil {
			return 0, err
		}
		removed += n
	}
	if err := free(ctx, tx, freed); err != nil {
		return 0, err
	}
	if err := tx.Commit(); err != nil {
		return 0, err
	}
	return removed, nil
}

// prunable says whether r may remove checkpoints of thread, in a read of
// two index entries that takes no write lock: whether its oldest is older
// than MaxAge, or its sequence spans more than KeepLast (a thread's rows
// are a run of the sequence but for the ones pruned, so this is seldom a
// Prune that finds nothing).
func (s *store) prunable(ctx context.Context, thread string, r checkpoint.Retention) (bool, error) {
	cutoff, keep := int64(math.MinInt64), int64(math.MaxInt64)
	if r.MaxAge > 0 {
		cutoff = time.Now().Add(-r.MaxAge).UnixNano()
	}
	if r.KeepLast > 0 {
		keep = int64(r.KeepLast)
	}
	var due bool
	err := s.prunableStmt.QueryRowContext(ctx, thread, cutoff, keep).Scan(&due)
	return due, err
}

// remove runs a DELETE of checkpoints returning (thread, fields), adds the
// pieces the removed rows listed to freed and says how many it removed.
func remove(ctx context.Context, tx *sql.Tx, freed map[string][]string, query string, args ...any) (int, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	defer func() { _ = rows.Close() }()
	n := 0
	for rows.Next() {
		var thread string
		var fields sql.NullString
		if err := rows.Scan(&thread, &fields); err != nil {
			return 0, err
		}
		n++
		if fields.Valid {
			m, err := blob.DecodeManifest(fields.String)
			if err != nil {
				return 0, fmt.Errorf("thread %q: %w", thread, err)
			}
			freed[thread] = append(freed[thread], m...)
		}
	}
	return n, rows.Err()
}

// free uncounts the pieces of removed rows and deletes those no row lists.
func free(ctx context.Context, tx *sql.Tx, freed map[string][]string) error {
	for thread, pieces := range freed {
		list := blob.EncodeManifest(pieces)
		if _, err := tx.ExecContext(ctx, `
			UPDATE state_refs SET refs = refs - j.n
			FROM (SELECT value AS h, COUNT(*) AS n FROM json_each(?2) GROUP BY value) AS j
			WHERE thread = ?1 AND hash = j.h`, thread, list); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM state_pieces WHERE thread = ?1 AND hash IN (
			SELECT hash FROM state_refs WHERE thread = ?1 AND refs <= 0 AND hash IN (SELECT value FROM json_each(?2)))`, thread, list); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM state_refs WHERE thread = ?1 AND refs <= 0
			AND hash IN (SELECT value FROM json_each(?2))`, thread, list); err != nil {
			return err
		}
	}
	return nil
}

func (s *store) Delete(ctx context.Context, thread string) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	ctx = inTx(ctx)
	for _, q := range []string{`DELETE FROM checkpoints WHERE thread = ?`, `DELETE FROM state_pieces WHERE thread = ?`, `DELETE FROM state_refs WHERE thread = ?`} {
		if _, err := tx.ExecContext(ctx, q, thread); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	return nil
}

func (s *store) Stored(ctx context.Context, thread string) (checkpoint.Stored, error) {
	var st checkpoint.Stored
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(length(data)), 0) FROM state_pieces WHERE ?1 = '' OR thread = ?1`,
		thread).Scan(&st.Pieces, &st.Bytes)
	return st, err
}
