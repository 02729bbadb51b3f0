// Package storeopen opens the connections the module's stores share: a
// SQLite file in WAL mode, a Postgres pool with its schema created under an
// advisory lock, and a Redis client that honours context deadlines. The
// checkpoint and node-cache stores open theirs here, so the settings that
// make them durable and bounded are written once.
package storeopen

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// DefaultTimeout bounds a store call whose context has no deadline, so a
// hung server or a locked file cannot block a graph run forever.
const DefaultTimeout = 30 * time.Second

// Context returns ctx with DefaultTimeout when it has no deadline.
func Context(ctx context.Context) (context.Context, context.CancelFunc) {
	if ctx == nil {
		ctx = context.Background()
	}
	if _, ok := ctx.Deadline(); ok {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, DefaultTimeout)
}

// BusyTimeoutMS is how long a SQLite writer waits for another process's
// write.
const BusyTimeoutMS = 10000

// SQLite opens the database file at path, creating it and its parent
// directories if needed. The file runs in WAL mode, so readers never wait
// for the writer, with synchronous=NORMAL: in WAL mode a crash of the
// program loses nothing committed, a power loss at most the last commits,
// and the file never corrupts. A transaction takes the write lock at BEGIN,
// where the busy timeout applies.
func SQLite(path string) (*sql.DB, error) {
	if path == "" {
		return nil, errors.New("path is empty")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", BusyTimeoutMS))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return db, nil
}

// Postgres connects a pool to the database at url (a postgres:// URL or a
// key=value connection string) and runs schema in a transaction that holds
// the advisory lock (lockClass, 0): two processes running CREATE ... IF NOT
// EXISTS at once can otherwise fail on the catalog's unique index. ctx
// bounds both (DefaultTimeout when it has no deadline).
func Postgres(ctx context.Context, url string, lockClass int32, schema string) (*pgxpool.Pool, error) {
	ctx, cancel := Context(ctx)
	defer cancel()
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, err
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if err := createSchema(ctx, pool, lockClass, schema); err != nil {
		pool.Close()
		return nil, fmt.Errorf("create table: %w", err)
	}
	return pool, nil
}

func createSchema(ctx context.Context, pool *pgxpool.Pool, lockClass int32, schema string) error {
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

// Redis connects to the server at url (redis://[user:password@]host:port/db,
// or rediss:// for TLS) and checks that it answers within ctx
// (DefaultTimeout when it has no deadline). The client honours the deadlines
// of the contexts it is given. An error names the server's address.
func Redis(ctx context.Context, url string) (*redis.Client, error) {
	opt, err := redis.ParseURL(url)
	if err != nil {
		return nil, err
	}
	opt.ContextTimeoutEnabled = true // without it go-redis ignores ctx deadlines on the socket
	client := redis.NewClient(opt)
	ctx, cancel := Context(ctx)
	defer cancel()
	if err := client.Ping(ctx).Err(); err != nil {
		_ = client.Close()
		return nil, fmt.Errorf("%s: %w", opt.Addr, err)
	}
	return client, nil
}
