package redis

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/sgrgraph/sgrgraph/checkpoint"
)

// Take implements driven.Driver with a key per held thread, set with SET
// NX PX: Redis expires it by its own clock, so replicas' clocks need not
// agree. Its value is the lease's token and the owner.
func (s *store) Take(ctx context.Context, thread, owner, token string, _ time.Time, ttl time.Duration) (*checkpoint.LeaseOps, string, error) {
	key, value := keysOf(thread).lock, token+" "+owner
	ok, err := s.client.SetNX(ctx, key, value, ttl).Result()
	if err != nil {
		return nil, "", err
	}
	if ok {
		return &checkpoint.LeaseOps{
			Renew: func(ctx context.Context) (bool, error) {
				n, err := s.scripts.renewLock.Run(ctx, s.client, []string{key}, value, ttl.Milliseconds()).Int()
				return n == 1, err
			},
			Free: func(ctx context.Context) error {
				return s.scripts.freeLock.Run(ctx, s.client, []string{key}, value).Err()
			},
		}, "", nil
	}
	held, err := s.client.Get(ctx, key).Result()
	switch {
	case err == nil:
		_, holder, _ := strings.Cut(held, " ")
		return nil, holder, nil
	case !errors.Is(err, redis.Nil):
		return nil, "", fmt.Errorf("read its holder: %w", err)
	}
	return nil, "", nil
}
