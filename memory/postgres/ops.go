package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sgrgraph/sgrgraph/memory"
	"github.com/sgrgraph/sgrgraph/memory/internal/rules"
)

// purgeSQL removes up to $2 items expired at $1, soonest first, skipping
// rows another writer holds rather than waiting for them.
const purgeSQL = `DELETE FROM sgrgraph_memories WHERE (namespace, key) IN
	(SELECT namespace, key FROM sgrgraph_memories WHERE expires > 0 AND expires <= $1
	 ORDER BY expires LIMIT $2 FOR UPDATE SKIP LOCKED)`

// putSQL inserts or replaces an item; a replaced item keeps its created
// time unless it had expired, which makes the new one a new item.
const putSQL = `
INSERT INTO sgrgraph_memories AS m (namespace, key, value, doc, created, updated, expires)
VALUES ($1, $2, $3, $4, $5, $5, $6)
ON CONFLICT (namespace, key) DO UPDATE SET
	value = excluded.value, doc = excluded.doc, updated = excluded.updated, expires = excluded.expires,
	created = CASE WHEN m.expires > 0 AND m.expires <= excluded.updated THEN excluded.created ELSE m.created END
RETURNING created`

const columns = `namespace, key, value, created, updated, expires`

func (s *store) Put(ctx context.Context, it memory.Item) (time.Time, error) {
	// One round trip: a batch runs as one implicit transaction.
	b := &pgx.Batch{}
	b.Queue(purgeSQL, it.Updated.UnixNano(), rules.PurgeBatch)
	var created int64
	b.Queue(putSQL, rules.Encode(it.Namespace), it.Key, []byte(it.Value), string(it.Value), it.Updated.UnixNano(), memory.UnixNanos(it.Expires)).
		QueryRow(func(row pgx.Row) error { return row.Scan(&created) })
	if err := s.pool.SendBatch(ctx, b).Close(); err != nil {
		return time.Time{}, err
	}
	return memory.FromUnixNanos(created), nil
}

func (s *store) Get(ctx context.Context, namespace []string, key string) (memory.Item, bool, error) {
	row := s.pool.QueryRow(ctx, `SELECT `+columns+` FROM sgrgraph_memories
		WHERE namespace = $1 AND key = $2 AND (expires = 0 OR expires > $3)`, rules.Encode(namespace), key, time.Now().UnixNano())
	it, err := scan(row)
	if errors.Is(err, pgx.ErrNoRows) {
		return memory.Item{}, false, nil
	}
	return it, err == nil, err
}

func (s *store) Delete(ctx context.Context, namespace []string, key string) error {
	_, err := s.pool.Exec(ctx, `DELETE FROM sgrgraph_memories WHERE namespace = $1 AND key = $2`, rules.Encode(namespace), key)
	return err
}

func (s *store) Purge(ctx context.Context) (int, error) {
	tag, err := s.pool.Exec(ctx, `DELETE FROM sgrgraph_memories WHERE expires > 0 AND expires <= $1`, time.Now().UnixNano())
	if err != nil {
		return 0, err
	}
	return int(tag.RowsAffected()), nil
}

// scan reads one row of columns.
func scan(row pgx.Row) (memory.Item, error) {
	var (
		ns, key                   string
		value                     []byte
		created, updated, expires int64
	)
	if err := row.Scan(&ns, &key, &value, &created, &updated, &expires); err != nil {
		return memory.Item{}, err
	}
	return memory.Item{Namespace: rules.Decode(ns), Key: key, Value: value, Created: memory.FromUnixNanos(created), Updated: memory.FromUnixNanos(updated), Expires: memory.FromUnixNanos(expires)}, nil
}
