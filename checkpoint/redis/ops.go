package redis

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/checkpoint/internal/blob"
	"github.com/sgrgraph/sgrgraph/checkpoint/internal/driven"
	"github.com/sgrgraph/sgrgraph/checkpoint/internal/record"
	"github.com/sgrgraph/sgrgraph/checkpoint/internal/rules"
)

func (s *store) Put(ctx context.Context, r driven.Record) (string, int, int, error) {
	cp, header, state, pieces, manifest := r.Checkpoint, r.Header, r.State, r.Pieces, r.Manifest
	fields := ""
	if manifest != nil {
		fields = strings.Join(manifest, ",")
	}
	k := keysOf(cp.Thread)
	id, sent, bytes, err := s.put(ctx, k, cp, header, state, fields, pieces, true)
	if err != nil && strings.Contains(err.Error(), "SGRGRAPH_MISSING") { // pruned by another process
		id, sent, bytes, err = s.put(ctx, k, cp, header, state, fields, pieces, false)
	}
	if err != nil && strings.Contains(err.Error(), "SGRGRAPH_EXISTS") {
		return "", 0, 0, driven.ErrExists
	}
	if err != nil {
		return "", 0, 0, err
	}
	if manifest != nil {
		s.known.set(cp.Thread, manifest)
	}
	return id, sent, len(header) + len(state) + len(fields) + bytes, nil
}

// put runs the put script, sending the pieces of the state the thread is
// not known to keep (all of them unless skipKnown); it returns the ID, and
// how many pieces it sent and their bytes.
func (s *store) put(ctx context.Context, k keys, cp checkpoint.Checkpoint, header, state []byte, fields string, pieces []blob.Piece, skipKnown bool) (id string, sent, bytes int, err error) {
	args := []any{cp.Thread, cp.ID, rules.IDFormat, rules.Suffix(), header, state, cp.Metadata.Time.UnixNano(), fields}
	distinct, _ := record.Distinct(pieces)
	for _, p := range distinct {
		if skipKnown && s.known.has(cp.Thread, p.Hash) {
			continue
		}
		args = append(args, p.Hash, p.Data)
		sent, bytes = sent+1, bytes+len(p.Data)
	}
	id, err = s.scripts.put.Run(ctx, s.client, k.list(), args...).Text()
	return id, sent, bytes, err
}

func (s *store) Get(ctx context.Context, thread, id string) (checkpoint.Checkpoint, bool, error) {
	return s.decodeRead(thread, s.scripts.get.Run(ctx, s.client, keysOf(thread).list(), thread, id))
}

func (s *store) Latest(ctx context.Context, thread string) (checkpoint.Checkpoint, bool, error) {
	return s.decodeRead(thread, s.scripts.latest.Run(ctx, s.client, keysOf(thread).list(), thread))
}

// decodeRead decodes the answer of a read script; false when it found none.
func (s *store) decodeRead(thread string, cmd *redis.Cmd) (checkpoint.Checkpoint, bool, error) {
	v, err := cmd.Slice()
	if errors.Is(err, redis.Nil) {
		return checkpoint.Checkpoint{}, false, nil
	}
	if err != nil {
		return checkpoint.Checkpoint{}, false, err
	}
	cp, err := s.decode(thread, v)
	return cp, err == nil, err
}

func (s *store) List(ctx context.Context, thread string, o checkpoint.ListOptions) ([]checkpoint.Checkpoint, bool, error) {
	k := keysOf(thread)
	below := "+inf"
	if o.Before != "" {
		seq, err := s.client.ZScore(ctx, k.order, o.Before).Result()
		if errors.Is(err, redis.Nil) {
			return nil, false, nil
		}
		if err != nil {
			return nil, false, err
		}
		below = "(" + strconv.FormatFloat(seq, 'f', -1, 64)
	}
	ids, err := s.client.ZRevRangeByScore(ctx, k.order, &redis.ZRangeBy{Max: below, Min: "-inf", Count: int64(o.Limit)}).Result()
	if err != nil {
		return nil, false, err
	}
	// Each checkpoint in one script, with its pieces: a prune in between
	// takes a checkpoint whole or not at all.
	read := func() ([]redis.Cmder, error) {
		return s.client.Pipelined(ctx, func(p redis.Pipeliner) error {
			for _, id := range ids {
				if o.NoState {
					p.HMGet(ctx, k.cp+id, "header")
				} else {
					s.scripts.get.Run(ctx, p, k.list(), thread, id)
				}
			}
			return nil
		})
	}
	cmds, err := read()
	if err != nil && redis.HasErrorPrefix(err, "NOSCRIPT") {
		// A pipeline's EVALSHA cannot fall back to EVAL as a lone call
		// does: the script is loaded, and the reads sent again.
		if err = s.scripts.get.Load(ctx, s.client).Err(); err == nil {
			cmds, err = read()
		}
	}
	if err != nil && !errors.Is(err, redis.Nil) {
		return nil, false, err
	}
	var out []checkpoint.Checkpoint
	for i, cmd := range cmds {
		var cp checkpoint.Checkpoint
		if o.NoState {
			h, ok := cmd.(*redis.SliceCmd).Val()[0].(string)
			if !ok {
				continue // pruned since the IDs were read
			}
			if cp, err = record.Decode(thread, ids[i], []byte(h), nil); err != nil {
				return nil, false, err
			}
			out = append(out, record.WithoutState(cp))
			continue
		}
		v, err := cmd.(*redis.Cmd).Slice()
		if errors.Is(err, redis.Nil) {
			continue // pruned since the IDs were read
		}
		if err != nil {
			return nil, false, err
		}
		if cp, err = s.decode(thread, v); err != nil {
			return nil, false, err
		}
		out = append(out, cp)
	}
	return out, true, nil
}

// decode rebuilds a checkpoint from a read script's answer: {id, header,
// state, fields, the data of each listed piece}.
func (s *store) decode(thread string, v []any) (checkpoint.Checkpoint, error) {
	if len(v) < 4 {
		return checkpoint.Checkpoint{}, fmt.Errorf("thread %q: a read returned %d values", thread, len(v))
	}
	id, _ := v[0].(string)
	header, _ := v[1].(string)
	state, _ := v[2].(string)
	fields, _ := v[3].(string)
	c := record.Collector{Thread: thread}
	if fields == "" {
		if err := c.Add(id, []byte(header), []byte(state), nil, "", nil); err != nil {
			return checkpoint.Checkpoint{}, err
		}
	} else {
		manifest := strings.Split(fields, ",")
		if err := c.Add(id, []byte(header), nil, func() ([]string, error) { return manifest, nil }, "", nil); err != nil {
			return checkpoint.Checkpoint{}, err
		}
		for i, h := range manifest {
			if 4+i >= len(v) {
				break
			}
			if d, ok := v[4+i].(string); ok { // a missing piece is nil: Checkpoints names it
				if err := c.Add(id, nil, nil, nil, h, []byte(d)); err != nil {
					return checkpoint.Checkpoint{}, err
				}
			}
		}
		s.known.set(thread, manifest)
	}
	cps, err := c.Checkpoints()
	if err != nil {
		return checkpoint.Checkpoint{}, err
	}
	return cps[0], nil
}
