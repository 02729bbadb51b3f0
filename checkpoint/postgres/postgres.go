// Package postgres is a checkpoint.Store in a Postgres table, on pgx's
// connection pool: durable threads shared by many processes.
//
// Each checkpoint is one row that lists the pieces of its state (fields); a
// piece is a row of sgrgraph_state_pieces, kept once per thread, and
// sgrgraph_state_refs counts the rows listing it, so a checkpoint writes only
// the pieces its thread does not have yet. History is never rewritten. Writers
// of one thread queue on a transaction-scoped advisory lock, so the sequence
// that orders a thread's checkpoints has no gaps or duplicates even across
// processes. A table written before pieces gets the column fields when opened:
// its rows keep their states whole (fields is NULL) and read as before.
package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/checkpoint/internal/driven"
	"github.com/sgrgraph/sgrgraph/internal/storeopen"
)

// schema is the checkpoints keyed by (thread, id), the names prefixed
// because the database is usually shared with other programs; seq orders a
// thread's rows in Put order and its unique index serves Latest and List.
// The pieces of their states are keyed by (thread, hash).
const schema = `
CREATE TABLE IF NOT EXISTS sgrgraph_checkpoints (
	thread  text   NOT NULL,
	id      text   NOT NULL,
	seq     bigint NOT NULL, -- Put order within the thread
	created bigint NOT NULL, -- Metadata.Time in Unix nanoseconds, for MaxAge
	header  bytea  NOT NULL, -- JSON: parent, next, interrupts, metadata
	state   bytea  NOT NULL, -- empty when fields lists the state's pieces
	fields  text[],          -- the state's pieces in order; NULL: the state is whole in state
	PRIMARY KEY (thread, id)
);
ALTER TABLE sgrgraph_checkpoints ADD COLUMN IF NOT EXISTS fields text[]; -- tables written before pieces
CREATE UNIQUE INDEX IF NOT EXISTS sgrgraph_checkpoints_order ON sgrgraph_checkpoints (thread, seq);
CREATE TABLE IF NOT EXISTS sgrgraph_state_pieces (
	thread text  NOT NULL,
	hash   text  NOT NULL, -- blob.Hash of data
	data   bytea NOT NULL,
	PRIMARY KEY (thread, hash)
);
CREATE TABLE IF NOT EXISTS sgrgraph_state_refs (
	thread text   NOT NULL,
	hash   text   NOT NULL,
	refs   bigint NOT NULL, -- how many times the thread's rows list the piece
	PRIMARY KEY (thread, hash)
);
-- The leases of TryLock: a row per thread held, until freed or expired.
CREATE TABLE IF NOT EXISTS sgrgraph_thread_locks (
	thread  text        PRIMARY KEY,
	owner   text        NOT NULL,
	token   text        NOT NULL, -- tells this lease from the thread's later ones
	expires timestamptz NOT NULL  -- by the database's clock, which every replica shares
);
`

// lockClass is the first key of every advisory lock this package takes, so
// its locks do not collide with another program's; the second key is the
// hash of the thread (or 0 while creating the table).
const lockClass = 0x53475247 // "SGRG"

// store is the driven.Driver that keeps checkpoints in the tables.
type store struct {
	pool *pgxpool.Pool
}

// Open connects to the database at url (a postgres:// URL or a key=value
// connection string) and creates the table if it is missing. ctx bounds the
// connection and the creation; pass one with a timeout.
func Open(ctx context.Context, url string) (checkpoint.Store, error) {
	pool, err := storeopen.Postgres(ctx, url, lockClass, schema)
	if err != nil {
		return nil, fmt.Errorf("checkpoint/postgres: open: %w", err)
	}
	return driven.New("postgres", &store{pool: pool}), nil
}

// Close closes the pool, waiting for connections in use to be returned.
func (s *store) Close() error {
	s.pool.Close()
	return nil
}
