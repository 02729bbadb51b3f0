package memory

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/sgrgraph/sgrgraph/memory/internal/rules"
)

// Limits every store enforces, so that items can move between stores.
const (
	MaxParts       = rules.MaxParts       // parts of a namespace
	MaxPartBytes   = rules.MaxPartBytes   // bytes of a namespace part
	MaxKeyBytes    = rules.MaxKeyBytes    // bytes of a key
	MaxValueBytes  = rules.MaxValueBytes  // bytes of a value (64 KiB)
	MaxTTL         = rules.MaxTTL         // the longest TTL (100 years)
	MaxLimit       = rules.MaxLimit       // the largest Limit
	DefaultLimit   = rules.DefaultLimit   // what Limit 0 means
	MaxFilterField = rules.MaxFilterField // fields of a Filter
	MaxTextBytes   = rules.MaxTextBytes   // bytes of Query.Text
	DefaultTimeout = rules.DefaultTimeout // a call's timeout when its context has none
)

// Item is one remembered JSON object.
type Item struct {
	Namespace []string        `json:"namespace"`
	Key       string          `json:"key"`
	Value     json.RawMessage `json:"value"` // a JSON object, byte for byte as Put
	Created   time.Time       `json:"created"`
	Updated   time.Time       `json:"updated"`
	Expires   time.Time       `json:"expires,omitzero"` // zero: never
	// Score is the share of Query.Text's words the item holds, in (0,1];
	// 0 outside a text search.
	Score float64 `json:"score,omitempty"`
}

// Query selects items for Search.
type Query struct {
	Prefix []string // namespaces that start with these parts; empty: all
	// Filter keeps items whose value has each field equal to its scalar
	// (string, number, bool, or nil for JSON null).
	Filter map[string]any
	Text   string // words to find in the value's strings; "": no text search
	Limit  int    // at most this many; 0: DefaultLimit
	Offset int    // skip this many first
}

// ListOptions selects namespaces for List.
type ListOptions struct {
	Prefix []string // namespaces that start with these parts; empty: all
	Limit  int      // 0: DefaultLimit
	Offset int
}

// ErrNotFound is the error (tested with errors.Is) of Get for an item that
// is missing or expired.
var ErrNotFound = errors.New("memory item not found")

// Store keeps items. Implementations are safe for concurrent use; every
// method honours ctx's deadline, or DefaultTimeout when it has none. Bad
// input is an error naming the field and its limit, and stores nothing.
type Store interface {
	// Put stores value at namespace and key, replacing what was there. ttl
	// 0 keeps the item until it is deleted; a Put sets a new TTL each time.
	Put(ctx context.Context, namespace []string, key string, value json.RawMessage, ttl time.Duration) (Item, error)
	// Get returns the live item, or an error wrapping ErrNotFound.
	Get(ctx context.Context, namespace []string, key string) (Item, error)
	// Delete removes an item; a missing one is no error.
	Delete(ctx context.Context, namespace []string, key string) error
	// List returns the namespaces holding live items under o.Prefix, in
	// the order of their parts.
	List(ctx context.Context, o ListOptions) ([][]string, error)
	// Search returns the live items q selects (see the package doc).
	Search(ctx context.Context, q Query) ([]Item, error)
	// Purge removes every expired item and says how many.
	Purge(ctx context.Context) (int, error)
	Close() error
}
