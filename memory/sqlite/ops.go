package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
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

func (s *store) Put(ctx context.Context, namespace []string, key string, value json.RawMessage, ttl time.Duration) (memory.Item, error) {
	if err := rules.Put(namespace, key, value, ttl); err != nil {
		return memory.Item{}, wrap("put", err)
	}
	ctx, cancel, err := call(ctx, "put")
	if err != nil {
		return memory.Item{}, err
	}
	defer cancel()
	now := time.Unix(0, time.Now().UnixNano()).UTC()
	it := memory.Item{Namespace: slices.Clone(namespace), Key: key, Value: slices.Clone(value), Updated: now}
	if ttl > 0 {
		it.Expires = now.Add(ttl)
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return memory.Item{}, wrap("put", err)
	}
	defer func() { _ = tx.Rollback() }()
	var created int64
	if _, err = tx.ExecContext(ctx, purgeSQL, now.UnixNano(), rules.PurgeBatch); err == nil {
		err = tx.QueryRowContext(ctx, putSQL, rules.Encode(namespace), key, []byte(value), now.UnixNano(), nanos(it.Expires)).Scan(&created)
	}
	if err == nil {
		err = tx.Commit()
	}
	if err != nil {
		return memory.Item{}, wrap("put", err)
	}
	it.Created = at(created)
	return it, nil
}

func (s *store) Get(ctx context.Context, namespace []string, key string) (memory.Item, error) {
	if err := errors.Join(rules.Namespace(namespace), rules.Key(key)); err != nil {
		return memory.Item{}, wrap("get", err)
	}
	ctx, cancel, err := call(ctx, "get")
	if err != nil {
		return memory.Item{}, err
	}
	defer cancel()
	row := s.db.QueryRowContext(ctx, `SELECT namespace, key, value, created, updated, expires FROM memories
		WHERE namespace = ? AND key = ? AND (expires = 0 OR expires > ?)`, rules.Encode(namespace), key, time.Now().UnixNano())
	it, err := scan(row)
	if errors.Is(err, sql.ErrNoRows) {
		err = fmt.Errorf("%q %q: %w", namespace, key, memory.ErrNotFound)
	}
	if err != nil {
		return memory.Item{}, wrap("get", err)
	}
	return it, nil
}

func (s *store) Delete(ctx context.Context, namespace []string, key string) error {
	if err := errors.Join(rules.Namespace(namespace), rules.Key(key)); err != nil {
		return wrap("delete", err)
	}
	ctx, cancel, err := call(ctx, "delete")
	if err != nil {
		return err
	}
	defer cancel()
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if _, err := s.db.ExecContext(ctx, `DELETE FROM memories WHERE namespace = ? AND key = ?`, rules.Encode(namespace), key); err != nil {
		return wrap("delete", err)
	}
	return nil
}

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
	return memory.Item{Namespace: rules.Decode(ns), Key: key, Value: value, Created: at(created), Updated: at(updated), Expires: at(expires)}, nil
}
