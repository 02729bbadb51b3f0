package redis

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/checkpoint/internal/record"
	"github.com/sgrgraph/sgrgraph/checkpoint/internal/rules"
)

func (s *store) Put(ctx context.Context, cp checkpoint.Checkpoint) (checkpoint.Checkpoint, error) {
	cp, header, err := record.ForPut(cp, time.Now())
	if err != nil {
		return checkpoint.Checkpoint{}, wrap("put", err)
	}
	ctx, cancel := rules.Context(ctx)
	defer cancel()
	k := keysOf(cp.Thread)
	id, err := s.scripts.put.Run(ctx, s.client, k.list(), cp.Thread, cp.ID, rules.IDFormat, rules.Suffix(),
		header, []byte(cp.State), cp.Metadata.Time.UnixNano()).Text()
	if err != nil {
		if strings.Contains(err.Error(), "SGRGRAPH_EXISTS") {
			err = fmt.Errorf("thread %q already has checkpoint %q", cp.Thread, cp.ID)
		}
		return checkpoint.Checkpoint{}, wrap("put", err)
	}
	cp.ID = id
	return cp, nil
}

func (s *store) Get(ctx context.Context, thread, id string) (checkpoint.Checkpoint, error) {
	if err := errors.Join(rules.Key("thread", thread), rules.Key("id", id)); err != nil {
		return checkpoint.Checkpoint{}, wrap("get", err)
	}
	ctx, cancel := rules.Context(ctx)
	defer cancel()
	v, err := s.client.HMGet(ctx, keysOf(thread).cp+id, "header", "state").Result()
	if err != nil {
		return checkpoint.Checkpoint{}, wrap("get", err)
	}
	cp, ok, err := decode(thread, id, v[0], v[1])
	if err == nil && !ok {
		err = fmt.Errorf("thread %q checkpoint %q: %w", thread, id, checkpoint.ErrNotFound)
	}
	if err != nil {
		return checkpoint.Checkpoint{}, wrap("get", err)
	}
	return cp, nil
}

func (s *store) Latest(ctx context.Context, thread string) (checkpoint.Checkpoint, error) {
	if err := rules.Key("thread", thread); err != nil {
		return checkpoint.Checkpoint{}, wrap("latest", err)
	}
	ctx, cancel := rules.Context(ctx)
	defer cancel()
	v, err := s.scripts.latest.Run(ctx, s.client, keysOf(thread).list(), thread).Slice()
	if errors.Is(err, redis.Nil) {
		err = fmt.Errorf("thread %q: %w", thread, checkpoint.ErrNotFound)
	}
	if err != nil {
		return checkpoint.Checkpoint{}, wrap("latest", err)
	}
	id, _ := v[0].(string)
	cp, _, err := decode(thread, id, v[1], v[2])
	if err != nil {
		return checkpoint.Checkpoint{}, wrap("latest", err)
	}
	return cp, nil
}

func (s *store) List(ctx context.Context, thread string, o checkpoint.ListOptions) ([]checkpoint.Checkpoint, error) {
	if err := rules.List(thread, o.Limit, o.Before); err != nil {
		return nil, wrap("list", err)
	}
	ctx, cancel := rules.Context(ctx)
	defer cancel()
	k := keysOf(thread)
	below := "+inf"
	if o.Before != "" {
		seq, err := s.client.ZScore(ctx, k.order, o.Before).Result()
		if errors.Is(err, redis.Nil) {
			err = fmt.Errorf("thread %q before %q: %w", thread, o.Before, checkpoint.ErrNotFound)
		}
		if err != nil {
			return nil, wrap("list", err)
		}
		below = "(" + strconv.FormatFloat(seq, 'f', -1, 64)
	}
	ids, err := s.client.ZRevRangeByScore(ctx, k.order, &redis.ZRangeBy{Max: below, Min: "-inf", Count: int64(o.Limit)}).Result()
	if err != nil {
		return nil, wrap("list", err)
	}
	cmds, err := s.client.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, id := range ids {
			p.HMGet(ctx, k.cp+id, "header", "state")
		}
		return nil
	})
	if err != nil {
		return nil, wrap("list", err)
	}
	var out []checkpoint.Checkpoint
	for i, cmd := range cmds {
		v := cmd.(*redis.SliceCmd).Val()
		cp, ok, err := decode(thread, ids[i], v[0], v[1])
		if err != nil {
			return nil, wrap("list", err)
		}
		if ok { // else pruned since the IDs were read
			if o.NoState {
				cp = record.WithoutState(cp)
			}
			out = append(out, cp)
		}
	}
	return out, nil
}

// decode rebuilds a checkpoint from the header and state fields of its hash;
// ok is false when the hash is missing.
func decode(thread, id string, header, state any) (cp checkpoint.Checkpoint, ok bool, err error) {
	h, hok := header.(string)
	st, _ := state.(string)
	if !hok {
		return cp, false, nil
	}
	cp, err = record.Decode(thread, id, []byte(h), []byte(st))
	return cp, err == nil, err
}
