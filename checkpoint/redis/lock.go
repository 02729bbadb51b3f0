package redis

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/checkpoint/internal/rules"
)

// takeAttempts bounds the retries of a lease freed between the SET that
// found it held and the GET that reads its holder.
const takeAttempts = 3

// TryLock implements checkpoint.Locker with a key per held thread, set with
// SET NX PX: Redis expires it by its own clock, so replicas' clocks need
// not agree. Its value is the lease's random token and the owner.
func (s *store) TryLock(ctx context.Context, thread, owner string, ttl time.Duration) (*checkpoint.Lease, error) {
	if err := rules.Lock(thread, owner, ttl); err != nil {
		return nil, wrap("lock", err)
	}
	ctx, cancel := rules.Context(ctx)
	defer cancel()
	key, value := keysOf(thread).lock, checkpoint.NewToken()+" "+owner
	for range takeAttempts {
		sent := time.Now()
		ok, err := s.client.SetNX(ctx, key, value, ttl).Result()
		if err != nil {
			return nil, wrap("lock", fmt.Errorf("thread %q: %w", thread, err))
		}
		if ok {
			return checkpoint.NewLease(thread, owner, ttl, sent, checkpoint.LeaseOps{
				Renew: func(ctx context.Context) (bool, error) {
					n, err := s.scripts.renewLock.Run(ctx, s.client, []string{key}, value, ttl.Milliseconds()).Int()
					if err != nil {
						return false, wrap("renew lease", err)
					}
					return n == 1, nil
				},
				Free: func(ctx context.Context) error {
					if err := s.scripts.freeLock.Run(ctx, s.client, []string{key}, value).Err(); err != nil {
						return wrap("free lease", err)
					}
					return nil
				},
			}), nil
		}
		held, err := s.client.Get(ctx, key).Result()
		switch {
		case err == nil:
			_, holder, _ := strings.Cut(held, " ")
			return nil, &checkpoint.BusyError{Thread: thread, Holder: holder}
		case !errors.Is(err, redis.Nil):
			return nil, wrap("lock", fmt.Errorf("thread %q: read its holder: %w", thread, err))
		}
	}
	return nil, wrap("lock", fmt.Errorf("thread %q: its lease changed hands %d times while it was being taken", thread, takeAttempts))
}
