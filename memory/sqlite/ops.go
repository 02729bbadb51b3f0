package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/sgrgraph/sgrgraph/memory"
	"github.com/sgrgraph/sgrgraph/memory/internal/rules"
)

// purgeSQL removes up to ?2 items expired at ?1, soonest first.
const purgeSQL = `DELETE FROM memories WHERE rowid IN
	(SELECT rowid FROM memories WHERE expires > 0 AND expires <= ?1 ORDER BY expires LIMIT ?2)`

// putSQL inserts or replaces an item; a replaced item keeps its created
// time unless it had expired, which makes the new one a new item.
const putSQL = `
INSERT INTO memories (namespace, key, value, created, updated, expires) VALUES (?1, ?2, ?3, ?4, ?4, ?5)
ON CONFLICT (namespace, key) DO UPDATE SET
	value = excluded.value, updated = excluded.updated, expires = excluded.expires,
	created = CASE WHEN memories.expires > 0 AND memories.expires <= excluded.updated
		THEN excluded.created ELSE memories.created END
RETURNING created`

func (s *store) Put(ctx context.Context, it memory.Item) (time.Time, error) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return time.Time{}, err
	}
	defer func() { _ = tx.Rollback() }()
	var created int64
	now := it.Updated.UnixNano()
	if _, err = tx.ExecContext(ctx, purgeSQL, now, rules.PurgeBatch); err == nil {
		err = tx.QueryRowContext(ctx, putSQL, rules.Encode(it.Namespace), it.Key, []byte(it.Value), now, memory.UnixNanos(it.Expires)).Scan(&created)
	}
	if err == nil {
		err = tx.Commit()
	}
	return memory.FromUnixNanos(created), err
}

func (s *store) Get(ctx context.Context, namespace []string, key string) (memory.Item, bool, error) {
	row := s.db.QueryRowContext(ctx, `SELECT `+columns+` FROM memories
		WHERE namespace = ? AND key = ? AND (expires = 0 OR expires > ?)`, rules.Encode(namespace), key, time.Now().UnixNano())
	it, err := scan(row)
	if errors.Is(err, sql.ErrNoRows) {
		return memory.Item{}, false, nil
	}
	return it, err == nil, err
}

func (s *store) Delete(ctx context.Context, namespace []string, key string) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	_, err := s.db.ExecContext(ctx, `DELETE FROM memories WHERE namespace = ? AND key = ?`, rules.Encode(namespace), key)
	return err
}

func (s *store) Purge(ctx context.Context) (int, error) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	res, err := s.db.ExecContext(ctx, `DELETE FROM memories WHERE expires > 0 AND expires <= ?`, time.Now().UnixNano())
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}

// columns are the columns scan reads, in its order.
const columns = `namespace, key, value, created, updated, expires`

// scan reads one row of namespace, key, value, created, updated, expires.
func scan(row interface{ Scan(...any) error }) (memory.Item, error) {
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
