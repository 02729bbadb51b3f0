package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sgrgraph/sgrgraph/checkpoint"
)

// takeSQL takes the thread's lease unless an unexpired one is there; it
// returns no row when the thread is held. Two replicas taking it at once
// meet on the row: the second sees the first's lease and takes nothing.
// Times are the database's (clock_timestamp), so replicas' clocks need not
// agree. A lease row rather than an advisory lock, because a session lock
// outlives a replica that hangs with its connection open, and a lease does not.
const takeSQL = `
INSERT INTO sgrgraph_thread_locks (thread, owner, token, expires)
VALUES ($1, $2, $3, clock_timestamp() + make_interval(secs => $4::float8))
ON CONFLICT (thread) DO UPDATE SET owner = EXCLUDED.owner, token = EXCLUDED.token, expires = EXCLUDED.expires
WHERE sgrgraph_thread_locks.expires <= clock_timestamp()
RETURNING token`

// Take implements driven.Driver with a row per held thread.
func (s *store) Take(ctx context.Context, thread, owner, token string, _ time.Time, ttl time.Duration) (*checkpoint.LeaseOps, string, error) {
	var got string
	err := s.pool.QueryRow(ctx, takeSQL, thread, owner, token, ttl.Seconds()).Scan(&got)
	if err == nil {
		return &checkpoint.LeaseOps{
			Renew: func(ctx context.Context) (bool, error) { return s.renew(ctx, thread, token, ttl) },
			Free:  func(ctx context.Context) error { return s.free(ctx, thread, token) },
		}, "", nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return nil, "", err
	}
	var holder string
	err = s.pool.QueryRow(ctx, `SELECT owner FROM sgrgraph_thread_locks WHERE thread = $1 AND expires > clock_timestamp()`, thread).Scan(&holder)
	switch {
	case err == nil:
		return nil, holder, nil
	case !errors.Is(err, pgx.ErrNoRows):
		return nil, "", fmt.Errorf("read its holder: %w", err)
	}
	return nil, "", nil
}

func (s *store) renew(ctx context.Context, thread, token string, ttl time.Duration) (bool, error) {
	tag, err := s.pool.Exec(ctx, `UPDATE sgrgraph_thread_locks SET expires = clock_timestamp() + make_interval(secs => $3::float8) WHERE thread = $1 AND token = $2`,
		thread, token, ttl.Seconds())
	if err != nil {
		return false, err
	}
	return tag.RowsAffected() == 1, nil
}

func (s *store) free(ctx context.Context, thread, token string) error {
	_, err := s.pool.Exec(ctx, `DELETE FROM sgrgraph_thread_locks WHERE thread = $1 AND token = $2`, thread, token)
	return err
}
