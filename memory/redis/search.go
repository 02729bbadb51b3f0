package redis

import (
	"context"
	"slices"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/sgrgraph/sgrgraph/memory"
	"github.com/sgrgraph/sgrgraph/memory/internal/rules"
)

// scanChunk is how many members one ZRANGEBYLEX and one pipeline of HMGETs
// read at a time.
const scanChunk = 500

// live returns the live items under prefix, in member order (namespace,
// then key). It reads the index a chunk at a time, each chunk's hashes in
// one pipeline; an item deleted or expired meanwhile is left out.
func (s *store) live(ctx context.Context, prefix []string) ([]memory.Item, error) {
	lo, hi := "-", "+"
	if l, h, bounded := rules.Range(prefix); bounded {
		lo, hi = "["+l, "("+h
	}
	var out []memory.Item
	for {
		members, err := s.client.ZRangeByLex(ctx, indexKey, &redis.ZRangeBy{Min: lo, Max: hi, Count: scanChunk}).Result()
		if err != nil || len(members) == 0 {
			return out, err
		}
		cmds := make([]*redis.SliceCmd, len(members))
		_, err = s.client.Pipelined(ctx, func(p redis.Pipeliner) error {
			for i, m := range members {
				cmds[i] = p.HMGet(ctx, itemPrefix+m, fieldNames...)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		now := time.Now()
		for i, m := range members {
			it, ok, err := item(m, cmds[i].Val(), now)
			if err != nil {
				return nil, err
			}
			if ok {
				out = append(out, it)
			}
		}
		if len(members) < scanChunk {
			return out, nil
		}
		lo = "(" + members[len(members)-1] // the next chunk starts after the last member read
	}
}

func (s *store) Namespaces(ctx context.Context, o memory.ListOptions) ([][]string, error) {
	items, err := s.live(ctx, o.Prefix)
	if err != nil {
		return nil, err
	}
	var spaces [][]string // in member order, so each namespace's items are together
	for _, it := range items {
		if len(spaces) == 0 || !slices.Equal(spaces[len(spaces)-1], it.Namespace) {
			spaces = append(spaces, it.Namespace)
		}
	}
	return append([][]string{}, memory.Page(spaces, o.Limit, o.Offset)...), nil
}

// Live reads every live item under the prefix; Query.Apply filters them.
func (s *store) Live(ctx context.Context, q memory.Query) ([]memory.Item, error) {
	return s.live(ctx, q.Prefix)
}
