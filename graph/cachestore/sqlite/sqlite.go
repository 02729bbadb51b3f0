// Package sqlite is a graph.CacheStore in one SQLite file, on the pure-Go
// modernc.org/sqlite driver (no cgo): node caches that outlive the process
// on one machine. The file may be the checkpoint store's: the tables differ.
//
// Each entry is one row. A Set numbers its row (seq) and removes the rows
// of Sets more than MaxEntries ago, and up to 100 expired rows; a Get never
// returns an expired row.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/sgrgraph/sgrgraph/graph/cachestore"
	"github.com/sgrgraph/sgrgraph/internal/storeopen"
)

const schema = `
CREATE TABLE IF NOT EXISTS node_cache (
	key     TEXT    PRIMARY KEY,
	value   BLOB    NOT NULL,
	seq     INTEGER NOT NULL, -- the Set that wrote it, for the bound
	expires INTEGER NOT NULL  -- Unix nanoseconds; 0: never
);
CREATE UNIQUE INDEX IF NOT EXISTS node_cache_seq ON node_cache (seq);
CREATE INDEX IF NOT EXISTS node_cache_expires ON node_cache (expires) WHERE expires > 0;
`

const (
	getSQL = `SELECT value FROM node_cache WHERE key = ?1 AND (expires = 0 OR expires > ?2)`
	setSQL = `INSERT INTO node_cache (key, value, seq, expires)
		VALUES (?1, ?2, (SELECT COALESCE(MAX(seq), 0) + 1 FROM node_cache), ?3)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value, seq = excluded.seq, expires = excluded.expires
		RETURNING seq`
	trimSQL  = `DELETE FROM node_cache WHERE seq <= ?1`
	purgeSQL = `DELETE FROM node_cache WHERE key IN
		(SELECT key FROM node_cache WHERE expires > 0 AND expires <= ?1 LIMIT 100)`
)

// Store is the cache in one file: cachestore's rules in front of this
// package's driver. It is safe for concurrent use, also by several
// processes.
type Store = cachestore.Store

// driver keeps the entries in the file.
type driver struct {
	db  *sql.DB
	max int64
	// writeMu queues this process's writers in Go rather than in SQLite's
	// busy handler, which sleeps in steps of up to 100 ms.
	writeMu sync.Mutex
}

// DefaultPath returns the per-user cache file:
// os.UserCacheDir()/sgrgraph/cache.db.
func DefaultPath() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("cachestore/sqlite: default path: %w", err)
	}
	return filepath.Join(dir, "sgrgraph", "cache.db"), nil
}

// Open opens (creating it and its parent directories if needed) the file at
// path, keeping the entries of the last maxEntries Sets
// (cachestore.DefaultMaxEntries when it is less than 1).
func Open(path string, maxEntries int) (*Store, error) {
	db, err := storeopen.SQLite(path)
	if err != nil {
		return nil, fmt.Errorf("cachestore/sqlite: open: %w", err)
	}
	ctx, cancel := storeopen.Context(context.Background())
	defer cancel()
	if _, err := db.ExecContext(ctx, schema); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("cachestore/sqlite: open %s: create table: %w", path, err)
	}
	return cachestore.NewStore("sqlite", &driver{db: db, max: int64(cachestore.Entries(maxEntries))}), nil
}

func (d *driver) Get(ctx context.Context, key string) ([]byte, bool, error) {
	var value []byte
	err := d.db.QueryRowContext(ctx, getSQL, key, time.Now().UnixNano()).Scan(&value)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	return value, err == nil, err
}

// Set writes the entry, keeps the bound and purges expired entries in one
// transaction.
func (d *driver) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	now := time.Now()
	var expires int64
	if ttl > 0 {
		expires = now.Add(ttl).UnixNano()
	}
	d.writeMu.Lock()
	defer d.writeMu.Unlock()
	tx, err := d.db.BeginTx(ctx, nil) // BEGIN IMMEDIATE
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	var seq int64
	if err := tx.QueryRowContext(ctx, setSQL, key, value, expires).Scan(&seq); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, trimSQL, seq-d.max); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, purgeSQL, now.UnixNano()); err != nil {
		return err
	}
	return tx.Commit()
}

// Close closes the file.
func (d *driver) Close() error { return d.db.Close() }
