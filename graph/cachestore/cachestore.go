// Package cachestore holds what the graph.CacheStore implementations kept
// outside the process share: their limits, and Store, which keeps the rules
// of a call (limits, a deadline, errors naming store and operation) in
// front of each one's Driver. The stores are its subpackages, beside the
// checkpoint stores: sqlite (one file, one machine), postgres and redis
// (shared by processes). Each keeps the entries of its last MaxEntries Sets
// (fewer when keys are set again) and never returns an expired entry;
// cachetest is the conformance suite they and graph.MemoryCache pass.
package cachestore

import (
	"errors"
	"fmt"
	"time"
)

// Limits of a call. A key past MaxKeyBytes would no longer fit Postgres's
// index; a value past MaxValueBytes is no node update a cache should keep.
const (
	MaxKeyBytes   = 2048
	MaxValueBytes = 16 << 20
)

// DefaultMaxEntries bounds a store opened with maxEntries < 1.
const DefaultMaxEntries = 100_000

// Entries returns maxEntries, or DefaultMaxEntries when it is less than 1.
func Entries(maxEntries int) int {
	if maxEntries < 1 {
		return DefaultMaxEntries
	}
	return maxEntries
}

// CheckKey reports a key a store does not take: empty or longer than
// MaxKeyBytes.
func CheckKey(key string) error {
	if key == "" {
		return errors.New("key is empty")
	}
	if len(key) > MaxKeyBytes {
		return fmt.Errorf("key is %d bytes, over the limit of %d", len(key), MaxKeyBytes)
	}
	return nil
}

// CheckSet reports a Set a store does not take: a bad key, a value longer
// than MaxValueBytes or a negative TTL.
func CheckSet(key string, value []byte, ttl time.Duration) error {
	if err := CheckKey(key); err != nil {
		return err
	}
	if len(value) > MaxValueBytes {
		return fmt.Errorf("value is %d bytes, over the limit of %d", len(value), MaxValueBytes)
	}
	if ttl < 0 {
		return fmt.Errorf("ttl must not be negative, got %s", ttl)
	}
	return nil
}
