package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sgrgraph/sgrgraph/memory"
	"github.com/sgrgraph/sgrgraph/memory/internal/rules"
)

// live selects the live rows under prefix: a range of the primary key
// (see rules.Range) and not expired at now.
func live(prefix []string, now time.Time) (string, []any) {
	where, args := `(expires = 0 OR expires > $1)`, []any{now.UnixNano()}
	if lo, hi, bounded := rules.Range(prefix); bounded {
		where, args = where+` AND namespace >= $2 AND namespace < $3`, append(args, lo, hi)
	}
	return where, args
}

func (s *store) Namespaces(ctx context.Context, o memory.ListOptions) ([][]string, error) {
	where, args := live(o.Prefix, time.Now())
	n := len(args)
	rows, err := s.pool.Query(ctx, fmt.Sprintf(`SELECT DISTINCT namespace FROM sgrgraph_memories WHERE %s
		ORDER BY namespace LIMIT $%d OFFSET $%d`, where, n+1, n+2), append(args, o.Limit, o.Offset)...)
	if err != nil {
		return nil, err
	}
	spaces, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, err
	}
	out := make([][]string, len(spaces))
	for i, ns := range spaces {
		out[i] = rules.Decode(ns)
	}
	return out, nil
}

func (s *store) Live(ctx context.Context, q memory.Query) ([]memory.Item, error) {
	where, args := live(q.Prefix, time.Now())
	if len(q.Filter) > 0 {
		// Containment of scalars is equality: the index narrows the rows,
		// and Query.Apply decides with the same rules as every store.
		f, err := json.Marshal(q.Filter)
		if err != nil {
			return nil, err
		}
		where, args = fmt.Sprintf(`%s AND doc @> $%d`, where, len(args)+1), append(args, string(f))
	}
	rows, err := s.pool.Query(ctx, `SELECT `+columns+` FROM sgrgraph_memories WHERE `+where, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (memory.Item, error) { return scan(row) })
}
