package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/sgrgraph/sgrgraph/checkpoint"
)

// takeSQL takes the thread's lease unless an unexpired one is there; it
// returns no row when the thread is held. Expiry is by this machine's clock,
// which every process on the file shares.
const takeSQL = `
INSERT INTO thread_locks (thread, owner, token, expires) VALUES (?1, ?2, ?3, ?4)
ON CONFLICT (thread) DO UPDATE SET owner = excluded.owner, token = excluded.token, expires = excluded.expires
WHERE thread_locks.expires <= ?5
RETURNING token`

// holderSQL reads the owner of an unexpired lease; renewSQL and freeSQL
// extend and free a lease by its token.
const (
	holderSQL = `SELECT owner FROM thread_locks WHERE thread = ? AND expires > ?`
	renewSQL  = `UPDATE thread_locks SET expires = ? WHERE thread = ? AND token = ?`
	freeSQL   = `DELETE FROM thread_locks WHERE thread = ? AND token = ?`
)

// Take implements driven.Driver with a row per held thread, so that the
// processes sharing the file share the leases too.
func (s *store) Take(ctx context.Context, thread, owner, token string, now time.Time, ttl time.Duration) (*checkpoint.LeaseOps, string, error) {
	taken, holder, err := s.take(ctx, thread, owner, token, now, ttl)
	if err != nil || !taken {
		return nil, holder, err
	}
	return &checkpoint.LeaseOps{
		Renew: func(ctx context.Context) (bool, error) { return s.renew(ctx, thread, token, ttl) },
		Free:  func(ctx context.Context) error { return s.free(ctx, thread, token) },
	}, "", nil
}

// take tries to take the lease; when it is held, holder is its owner ("" if
// it was freed meanwhile).
func (s *store) take(ctx context.Context, thread, owner, token string, now time.Time, ttl time.Duration) (taken bool, holder string, err error) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	var got string
	err = s.takeStmt.QueryRowContext(ctx, thread, owner, token, now.Add(ttl).UnixMilli(), now.UnixMilli()).Scan(&got)
	if err == nil {
		return true, "", nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return false, "", err
	}
	err = s.holderStmt.QueryRowContext(ctx, thread, now.UnixMilli()).Scan(&holder)
	if errors.Is(err, sql.ErrNoRows) {
		return false, "", nil
	}
	return false, holder, err
}

func (s *store) renew(ctx context.Context, thread, token string, ttl time.Duration) (bool, error) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	res, err := s.renewStmt.ExecContext(ctx, time.Now().Add(ttl).UnixMilli(), thread, token)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func (s *store) free(ctx context.Context, thread, token string) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	_, err := s.freeStmt.ExecContext(ctx, thread, token)
	return err
}
