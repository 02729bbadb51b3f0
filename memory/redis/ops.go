package redis

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/sgrgraph/sgrgraph/memory"
	"github.com/sgrgraph/sgrgraph/memory/internal/rules"
)

var setKeys = []string{indexKey, expiresKey}

func (s *store) Put(ctx context.Context, it memory.Item) (time.Time, error) {
	expNS, expMS := int64(0), int64(0)
	if !it.Expires.IsZero() {
		expNS, expMS = it.Expires.UnixNano(), ceilMS(it.Expires)
	}
	created, err := putScript.Run(ctx, s.client, setKeys, itemPrefix, member(it.Namespace, it.Key), []byte(it.Value),
		it.Updated.UnixNano(), expNS, floorMS(it.Updated), expMS, rules.PurgeBatch).Text()
	if err != nil {
		return time.Time{}, err
	}
	return at(created)
}

func (s *store) Get(ctx context.Context, namespace []string, key string) (memory.Item, bool, error) {
	m := member(namespace, key)
	fields, err := s.client.HMGet(ctx, itemPrefix+m, fieldNames...).Result()
	if err != nil {
		return memory.Item{}, false, err
	}
	return item(m, fields, time.Now())
}

func (s *store) Delete(ctx context.Context, namespace []string, key string) error {
	return deleteScript.Run(ctx, s.client, setKeys, itemPrefix, member(namespace, key)).Err()
}

// purgeChunk is how many expired items one purge script removes: Purge
// runs it until it finds fewer, so no script blocks the server for long.
const purgeChunk = 1000

func (s *store) Purge(ctx context.Context) (int, error) {
	total := 0
	for {
		n, err := purgeScript.Run(ctx, s.client, setKeys, itemPrefix, floorMS(time.Now()), purgeChunk).Int()
		if err != nil {
			return total, err
		}
		total += n
		if n < purgeChunk {
			return total, nil
		}
	}
}

// fieldNames are the fields of an item's hash, in the order item reads.
var fieldNames = []string{"v", "c", "u", "e"}

// item builds the item m from its hash fields; false when the hash is gone
// or the item expired at now.
func item(m string, fields []any, now time.Time) (memory.Item, bool, error) {
	if len(fields) != len(fieldNames) || fields[0] == nil {
		return memory.Item{}, false, nil
	}
	var times [3]time.Time
	for i := range times {
		s, _ := fields[i+1].(string)
		t, err := at(s)
		if err != nil {
			return memory.Item{}, false, fmt.Errorf("item %q: %w", m, err)
		}
		times[i] = t
	}
	if !times[2].IsZero() && !times[2].After(now) {
		return memory.Item{}, false, nil
	}
	ns, key := split(m)
	v, _ := fields[0].(string)
	return memory.Item{Namespace: ns, Key: key, Value: json.RawMessage(v), Created: times[0], Updated: times[1], Expires: times[2]}, true, nil
}

// at reads a time stored in Unix nanoseconds; "0" is the zero time.
func at(s string) (time.Time, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("stored time %q: %w", s, err)
	}
	if n == 0 {
		return time.Time{}, nil
	}
	return time.Unix(0, n).UTC(), nil
}
