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

func (s *store) Namespaces(ctx context.Context, o memory.ListOptions) ([][]string, error) {
	where, args := live(o.Prefix, time.Now())
	// BINARY collation: byte order of encodings, which is the parts' order.
	rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT namespace FROM memories WHERE `+where+
		` ORDER BY namespace LIMIT ? OFFSET ?`, append(args, o.Limit, o.Offset)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out [][]string
	for rows.Next() {
		var ns string
		if err := rows.Scan(&ns); err != nil {
			return nil, err
		}
		out = append(out, rules.Decode(ns))
	}
	return out, rows.Err()
}

func (s *store) Live(ctx context.Context, q memory.Query) ([]memory.Item, error) {
	where, args := live(q.Prefix, time.Now())
	rows, err := s.db.QueryContext(ctx, `SELECT `+columns+` FROM memories WHERE `+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var found []memory.Item
	for rows.Next() {
		it, err := scan(rows)
		if err != nil {
			return nil, err
		}
		found = append(found, it)
	}
	return found, rows.Err()
}
