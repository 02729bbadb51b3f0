// Package postgres is a memory.Store in a Postgres table, on pgx's
// connection pool: long-term memory shared by many processes.
//
// Each item is one row. Its value is kept twice: byte for byte (bytea), so
// Get returns what Put was given, and as jsonb with a GIN index, so that a
// search's filter is answered by the index (containment, @>) before the
// shared Query.Apply checks it again. The namespace column sorts by bytes
// (COLLATE "C"), so a namespace prefix is a range of the primary key.
package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sgrgraph/sgrgraph/memory"
	"github.com/sgrgraph/sgrgraph/memory/internal/rules"
)

// schema is one table keyed by (namespace, key), its name prefixed because
// the database is usually shared with other programs.
const schema = `
CREATE TABLE IF NOT EXISTS sgrgraph_memories (
	namespace text COLLATE "C" NOT NULL, -- each part ended by U+001F (rules.Encode)
	key       text COLLATE "C" NOT NULL,
	value     bytea  NOT NULL, -- the JSON object, byte for byte
	doc       jsonb  NOT NULL, -- the same object, for filters
	created   bigint NOT NULL, -- Unix nanoseconds
	updated   bigint NOT NULL,
	expires   bigint NOT NULL, -- Unix nanoseconds; 0: never
	PRIMARY KEY (namespace, key)
);
CREATE INDEX IF NOT EXISTS sgrgraph_memories_expires ON sgrgraph_memories (expires) WHERE expires > 0;
CREATE INDEX IF NOT EXISTS sgrgraph_memories_doc ON sgrgraph_memories USING gin (doc jsonb_path_ops);
`

// lockClass keys the advisory lock taken while creating the table, apart
// from the checkpoint store's ("SGRG") and other programs' locks.
const lockClass = 0x53474d4d // "SGMM"

type store struct {
	pool *pgxpool.Pool
}

// Open connects to the database at url (a postgres:// URL or a key=value
// connection string) and creates the table if it is missing. ctx bounds the
// connection and the creation.
func Open(ctx context.Context, url string) (memory.Store, error) {
	ctx, cancel := rules.Context(ctx)
	defer cancel()
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("memory/postgres: open: %w", err)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("memory/postgres: open: %w", err)
	}
	if err := createTable(ctx, pool); err != nil {
		pool.Close()
		return nil, fmt.Errorf("memory/postgres: open: create table: %w", err)
	}
	return memory.NewStore("postgres", &store{pool: pool}), nil
}

// createTable creates the table under a lock: two processes running CREATE
// TABLE IF NOT EXISTS at once can otherwise fail on the catalog's unique index.
func createTable(ctx context.Context, pool *pgxpool.Pool) error {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback(ctx) }()
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, 0)`, lockClass); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, schema); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// Close closes the pool, waiting for connections in use to be returned.
func (s *store) Close() error {
	s.pool.Close()
	return nil
}
