// Package postgres is a graph.CacheStore in a Postgres table, on pgx's
// connection pool: node caches shared by many processes.
//
// Each entry is one row. Expiry is by the database's clock, which every
// process shares. A Set numbers its row from a sequence and, in the same
// statement, removes the rows of Sets more than MaxEntries ago and up to
// 100 expired rows; a Get never returns an expired row.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sgrgraph/sgrgraph/graph/cachestore"
	"github.com/sgrgraph/sgrgraph/internal/storeopen"
)

// schema is one table keyed by key, its name prefixed because the database
// is usually shared with other programs.
const schema = `
CREATE SEQUENCE IF NOT EXISTS sgrgraph_node_cache_seq;
CREATE TABLE IF NOT EXISTS sgrgraph_node_cache (
	key     bytea  PRIMARY KEY, -- bytes: a key may hold any, NUL included
	value   bytea  NOT NULL,
	seq     bigint NOT NULL, -- the Set that wrote it, for the bound
	expires timestamptz      -- NULL: never
);
CREATE INDEX IF NOT EXISTS sgrgraph_node_cache_order ON sgrgraph_node_cache (seq);
CREATE INDEX IF NOT EXISTS sgrgraph_node_cache_expires ON sgrgraph_node_cache (expires) WHERE expires IS NOT NULL;
`

// lockClass keys the advisory lock taken while creating the table, apart
// from the checkpoint store's ("SGRG"), the memory store's and other
// programs' locks.
const lockClass = 0x5347434e // "SGCN"

const (
	getSQL = `SELECT value FROM sgrgraph_node_cache
		WHERE key = $1 AND (expires IS NULL OR expires > clock_timestamp())`
	// setSQL upserts the entry ($3: its TTL in microseconds, 0 for none)
	// and removes, but for the key itself (one statement may not change a
	// row twice), the entries of old Sets ($4: the bound) and expired ones.
	setSQL = `
WITH next AS (SELECT nextval('sgrgraph_node_cache_seq') AS seq),
up AS (
	INSERT INTO sgrgraph_node_cache (key, value, seq, expires)
	SELECT $1, $2, seq, CASE WHEN $3::bigint > 0 THEN clock_timestamp() + $3::bigint * interval '1 microsecond' END FROM next
	ON CONFLICT (key) DO UPDATE SET value = excluded.value, seq = excluded.seq, expires = excluded.expires
)
DELETE FROM sgrgraph_node_cache
WHERE key <> $1 AND (seq <= (SELECT seq FROM next) - $4::bigint
	OR key IN (SELECT key FROM sgrgraph_node_cache WHERE expires <= clock_timestamp() LIMIT 100))`
)

// Store is the cache in one database: cachestore's rules in front of this
// package's driver. It is safe for concurrent use. A TTL under a
// microsecond counts as one.
type Store = cachestore.Store

// driver keeps the entries in the table.
type driver struct {
	pool *pgxpool.Pool
	max  int64
}

// Open connects to the database at url (a postgres:// URL or a key=value
// connection string) and creates the table if it is missing, keeping the
// entries of the last maxEntries Sets (cachestore.DefaultMaxEntries when it
// is less than 1). ctx bounds the connection and the creation.
func Open(ctx context.Context, url string, maxEntries int) (*Store, error) {
	pool, err := storeopen.Postgres(ctx, url, lockClass, schema)
	if err != nil {
		return nil, fmt.Errorf("cachestore/postgres: open: %w", err)
	}
	return cachestore.NewStore("postgres", &driver{pool: pool, max: int64(cachestore.Entries(maxEntries))}), nil
}

func (d *driver) Get(ctx context.Context, key string) ([]byte, bool, error) {
	var value []byte
	err := d.pool.QueryRow(ctx, getSQL, []byte(key)).Scan(&value)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	return value, err == nil, err
}

// Set counts a TTL under a microsecond as one.
func (d *driver) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	micros := ttl.Microseconds()
	if ttl > 0 && micros == 0 {
		micros = 1
	}
	_, err := d.pool.Exec(ctx, setSQL, []byte(key), value, micros, d.max)
	return err
}

// Close closes the pool, waiting for connections in use to be returned.
func (d *driver) Close() error {
	d.pool.Close()
	return nil
}
