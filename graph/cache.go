package graph

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"
)

// CachePolicy caches a node's work by a key of its input state, as
// LangGraph's CachePolicy does: a run whose node input has a key already in
// the cache skips the node (its function, middleware and retries) and
// applies the cached update: the top-level fields the node changed, laid
// over the state the node is given, and the Gotos it made. The state goes
// through JSON, as checkpoints do: a field JSON does not carry is neither
// cached nor changed by a hit.
type CachePolicy[S any] struct {
	// Key names the input for the cache; nil keys by a hash of the state's
	// JSON. Entries are kept per graph and node, so keys need not say which.
	Key func(S) string
	// TTL is how long an entry lasts; 0 keeps it until the store evicts it.
	TTL time.Duration
}

// WithCache caches the node's work by p (see CachePolicy), in the store
// given to Compile by WithCacheStore or else in memory, bounded to
// DefaultCacheEntries entries for the Runnable.
func WithCache[S any](p CachePolicy[S]) NodeOption {
	return func(o *nodeOptions) { o.cache = p }
}

// CacheStore keeps cached node updates. Get reports a missing or expired
// key as false with no error. A store's error fails the node, naming it:
// a cache that silently stops working hides a fault. Besides MemoryCache,
// graph/cachestore has stores that outlive the process and are shared by
// processes: sqlite, postgres and redis.
type CacheStore interface {
	Get(ctx context.Context, key string) (value []byte, ok bool, err error)
	Set(ctx context.Context, key string, value []byte, ttl time.Duration) error
}

// WithCacheStore keeps the graph's node caches in c instead of a memory
// cache of the Runnable's own. Keys start with the graph's name, the node's
// and the state version (WithStateVersion), so graphs may share a store if
// their names differ.
func WithCacheStore(c CacheStore) CompileOption { return func(o *compileOptions) { o.cacheStore = c } }

// cacheEntry is what a cache keeps of one node run.
type cacheEntry struct {
	Update     map[string]json.RawMessage `json:"update,omitempty"` // the top-level fields the node changed
	Value      json.RawMessage            `json:"value,omitempty"`  // the whole output, for a state that is no JSON object
	Goto       []string                   `json:"goto,omitempty"`
	GotoParent []string                   `json:"goto_parent,omitempty"`
}

func cachePolicyOf[S any](node string, own, def any) (*CachePolicy[S], error) {
	p := own
	if p == nil {
		p = def
	}
	if p == nil {
		return nil, nil
	}
	cp, ok := p.(CachePolicy[S])
	if !ok {
		return nil, fmt.Errorf("node %q: cache policy %T is not over the state type %T", node, p, *new(S))
	}
	if cp.TTL < 0 {
		return nil, fmt.Errorf("node %q: cache TTL must not be negative, got %s", node, cp.TTL)
	}
	return &cp, nil
}

// cached wraps a node's call in its cache, when it has one.
func (r *Runnable[S]) cached(name string, call NodeFunc[S]) NodeFunc[S] {
	p := r.verbs.cache[name]
	if p == nil {
		return call
	}
	store := r.verbs.store
	prefix := fmt.Sprintf("%s/%s/v%d/", r.g.name, name, r.codec.Version)
	return func(ctx context.Context, s S) (S, error) {
		before, err := json.Marshal(s)
		if err != nil {
			return s, fmt.Errorf("node %q: cache: the state does not encode: %w", name, err)
		}
		key := prefix
		if p.Key != nil {
			key += p.Key(s)
		} else {
			sum := sha256.Sum256(before)
			key += hex.EncodeToString(sum[:])
		}
		data, ok, err := store.Get(ctx, key)
		if err != nil {
			return s, fmt.Errorf("node %q: cache: %w", name, err)
		}
		var e cacheEntry
		if ok && json.Unmarshal(data, &e) == nil { // an entry that no longer decodes is a miss
			out, err := applyUpdate(s, e)
			if err == nil {
				if sk := sinkOf(ctx); sk != nil {
					sk.add(e.Goto, e.GotoParent)
				}
				return out, nil
			}
		}
		var capture *sink
		cctx := ctx
		if sk := sinkOf(ctx); sk != nil {
			capture = sk.child()
			cctx = context.WithValue(ctx, sinkKey{}, capture)
		}
		out, err := call(cctx, s)
		if err != nil {
			return out, err
		}
		if e, err = updateOf(before, out); err != nil {
			return out, fmt.Errorf("node %q: cache: %w", name, err)
		}
		if capture != nil {
			e.Goto, e.GotoParent = capture.targets()
			capture.commit()
		}
		if data, err = json.Marshal(e); err == nil {
			err = store.Set(ctx, key, data, p.TTL)
		}
		if err != nil {
			return out, fmt.Errorf("node %q: cache: %w", name, err)
		}
		return out, nil
	}
}

// updateOf is what a node changed: the top-level fields of its output that
// differ from its input, or the whole output for a state that is no object.
func updateOf[S any](before []byte, out S) (cacheEntry, error) {
	after, err := json.Marshal(out)
	if err != nil {
		return cacheEntry{}, fmt.Errorf("the output does not encode: %w", err)
	}
	var b, a map[string]json.RawMessage
	if json.Unmarshal(before, &b) != nil || json.Unmarshal(after, &a) != nil {
		return cacheEntry{Value: after}, nil
	}
	up := map[string]json.RawMessage{}
	for k, v := range a {
		if !bytes.Equal(b[k], v) {
			up[k] = v
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			up[k] = json.RawMessage("null") // an omitempty field the node cleared
		}
	}
	return cacheEntry{Update: up}, nil
}

// applyUpdate lays a cached update over a copy of s. The changed fields
// are cleared first, so a map or list is replaced rather than merged into
// and a field the node emptied (gone from its JSON by omitempty) is empty.
func applyUpdate[S any](s S, e cacheEntry) (S, error) {
	var out S
	if e.Update == nil {
		err := json.Unmarshal(e.Value, &out)
		return out, err
	}
	out = copyState(s)
	if len(e.Update) == 0 {
		return out, nil
	}
	clearFields(reflect.ValueOf(&out).Elem(), e.Update)
	data, err := json.Marshal(e.Update)
	if err == nil {
		err = json.Unmarshal(data, &out)
	}
	if err != nil {
		return s, err
	}
	return out, nil
}

// clearFields empties the top-level fields of a struct or map state that
// are named (as JSON names them) in keys.
func clearFields(v reflect.Value, keys map[string]json.RawMessage) {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Map:
		if v.Type().Key().Kind() == reflect.String {
			for k := range keys {
				v.SetMapIndex(reflect.ValueOf(k).Convert(v.Type().Key()), reflect.Value{})
			}
		}
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			switch {
			case !f.IsExported() || name == "-":
			case f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct:
				clearFields(v.Field(i), keys) // its fields are the state's own in JSON
			default:
				if name == "" {
					name = f.Name
				}
				if _, ok := keys[name]; ok && v.Field(i).CanSet() {
					v.Field(i).SetZero()
				}
			}
		}
	}
}
