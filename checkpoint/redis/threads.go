package redis

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/checkpoint/internal/rules"
)

func (s *store) Threads(ctx context.Context) ([]checkpoint.ThreadInfo, error) {
	threads, err := s.client.SMembers(ctx, prefix+"threads").Result()
	if err != nil {
		return nil, err
	}
	// One round trip for counts and newest IDs, one for the newest times.
	counts := make([]*redis.IntCmd, len(threads))
	tops := make([]*redis.StringSliceCmd, len(threads))
	if _, err := s.client.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, th := range threads {
			counts[i] = p.ZCard(ctx, keysOf(th).order)
			tops[i] = p.ZRevRange(ctx, keysOf(th).order, 0, 0)
		}
		return nil
	}); err != nil {
		return nil, err
	}
	times := make([]*redis.StringCmd, len(threads))
	if _, err := s.client.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, th := range threads {
			if top := tops[i].Val(); len(top) > 0 {
				times[i] = p.HGet(ctx, keysOf(th).cp+top[0], "time")
			}
		}
		return nil
	}); err != nil && !errors.Is(err, redis.Nil) {
		return nil, err
	}
	out := make([]checkpoint.ThreadInfo, 0, len(threads))
	for i, th := range threads {
		if times[i] == nil || times[i].Err() != nil || counts[i].Val() == 0 {
			continue // emptied since the set was read
		}
		ns, _ := strconv.ParseInt(times[i].Val(), 10, 64)
		out = append(out, checkpoint.ThreadInfo{Thread: th, Checkpoints: int(counts[i].Val()), Latest: time.Unix(0, ns).UTC()})
	}
	// The most recently written first, as the SQL stores order them.
	slices.SortFunc(out, func(a, b checkpoint.ThreadInfo) int {
		if c := b.Latest.Compare(a.Latest); c != 0 {
			return c
		}
		return strings.Compare(a.Thread, b.Thread)
	})
	return out, nil
}

func (s *store) Prune(ctx context.Context, thread string, r checkpoint.Retention) (int, error) {
	threads := []string{thread}
	if thread == "" {
		var err error
		if threads, err = s.client.SMembers(ctx, prefix+"threads").Result(); err != nil {
			return 0, err
		}
	}
	removed := 0
	for _, th := range threads {
		n, err := s.pruneThread(ctx, th, r)
		if err != nil {
			return removed, err
		}
		removed += n
	}
	return removed, nil
}

// pruneThread reads the thread's IDs (and times, for MaxAge), picks the
// expired ones and removes them in one script.
func (s *store) pruneThread(ctx context.Context, thread string, r checkpoint.Retention) (int, error) {
	k := keysOf(thread)
	ids, err := s.client.ZRevRange(ctx, k.order, 0, -1).Result()
	if err != nil {
		return 0, err
	}
	times := make([]time.Time, len(ids))
	if r.MaxAge > 0 && len(ids) > 0 {
		cmds, err := s.client.Pipelined(ctx, func(p redis.Pipeliner) error {
			for _, id := range ids {
				p.HGet(ctx, k.cp+id, "time")
			}
			return nil
		})
		if err != nil && !errors.Is(err, redis.Nil) {
			return 0, err
		}
		for i, cmd := range cmds {
			ns, _ := strconv.ParseInt(cmd.(*redis.StringCmd).Val(), 10, 64)
			times[i] = time.Unix(0, ns)
		}
	}
	args := []any{thread}
	for _, i := range rules.Expired(times, r.KeepLast, r.MaxAge, time.Now()) {
		args = append(args, ids[i])
	}
	if len(args) == 1 {
		return 0, nil
	}
	s.known.forget(thread)
	return s.scripts.remove.Run(ctx, s.client, k.list(), args...).Int()
}

func (s *store) Delete(ctx context.Context, thread string) error {
	s.known.forget(thread)
	return s.scripts.deleteThread.Run(ctx, s.client, keysOf(thread).list(), thread).Err()
}

func (s *store) Stored(ctx context.Context, thread string) (checkpoint.Stored, error) {
	threads := []string{thread}
	if thread == "" {
		var err error
		if threads, err = s.client.SMembers(ctx, prefix+"threads").Result(); err != nil {
			return checkpoint.Stored{}, err
		}
	}
	var st checkpoint.Stored
	for _, th := range threads {
		v, err := s.scripts.stored.Run(ctx, s.client, keysOf(th).list(), th).Int64Slice()
		if err != nil {
			return checkpoint.Stored{}, err
		}
		st.Pieces += int(v[0])
		st.Bytes += v[1]
	}
	return st, nil
}
