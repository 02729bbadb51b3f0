package sqlite

import (
	"context"
	"time"

	"github.com/sgrgraph/sgrgraph/memory"
	"github.com/sgrgraph/sgrgraph/memory/internal/rules"
)

// live selects the live rows under prefix: a range of the primary key
// (see rules.Range) and not expired at now.
func live(prefix []string, now time.Time) (string, []any) {
	where, args := `(expires = 0 OR expires > ?)`, []any{now.UnixNano()}
	if lo, hi, bounded := rules.Range(prefix); bounded {
		where, args = where+` AND namespace >= ? AND namespace < ?`, append(args, lo, hi)
	}
	return where, args
}

func (s *store) List(ctx context.Context, o memory.ListOptions) ([][]string, error) {
	if err := o.Validate(); err != nil {
		return nil, wrap("list", err)
	}
	ctx, cancel, err := call(ctx, "list")
	if err != nil {
		return nil, err
	}
	defer cancel()
	where, args := live(o.Prefix, time.Now())
	limit := o.Limit
	if limit == 0 {
		limit = memory.DefaultLimit
	}
	// BINARY collation: byte order of encodings, which is the parts' order.
	rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT namespace FROM memories WHERE `+where+
		` ORDER BY namespace LIMIT ? OFFSET ?`, append(args, limit, o.Offset)...)
	if err != nil {
		return nil, wrap("list", err)
	}
	defer rows.Close()
	out := [][]string{}
	for rows.Next() {
		var ns string
		if err := rows.Scan(&ns); err != nil {
			return nil, wrap("list", err)
		}
		out = append(out, rules.Decode(ns))
	}
	if err := rows.Err(); err != nil {
		return nil, wrap("list", err)
	}
	return out, nil
}

func (s *store) Search(ctx context.Context, q memory.Query) ([]memory.Item, error) {
	if err := q.Validate(); err != nil {
		return nil, wrap("search", err)
	}
	ctx, cancel, err := call(ctx, "search")
	if err != nil {
		return nil, err
	}
	defer cancel()
	where, args := live(q.Prefix, time.Now())
	rows, err := s.db.QueryContext(ctx, `SELECT namespace, key, value, created, updated, expires FROM memories WHERE `+where, args...)
	if err != nil {
		return nil, wrap("search", err)
	}
	defer rows.Close()
	var found []memory.Item
	for rows.Next() {
		it, err := scan(rows)
		if err != nil {
			return nil, wrap("search", err)
		}
		found = append(found, it)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap("search", err)
	}
	out, err := q.Apply(found)
	if err != nil {
		return nil, wrap("search", err)
	}
	return out, nil
}

func (s *store) Purge(ctx context.Context) (int, error) {
	ctx, cancel, err := call(ctx, "purge")
	if err != nil {
		return 0, err
	}
	defer cancel()
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	res, err := s.db.ExecContext(ctx, `DELETE FROM memories WHERE expires > 0 AND expires <= ?`, time.Now().UnixNano())
	if err != nil {
		return 0, wrap("purge", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, wrap("purge", err)
	}
	return int(n), nil
}
