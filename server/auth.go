package server

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
	"strings"
	"sync"
)

// anonymous is the key id of every request when the server has no keys.
const anonymous = "anonymous"

// keyring holds the digests of the API keys, never the keys: a digest
// compares in constant time whatever the presented key's length.
type keyring struct {
	digests [][sha256.Size]byte
}

func newKeyring(keys []string) keyring {
	var k keyring
	for _, key := range keys {
		if key = strings.TrimSpace(key); key != "" {
			k.digests = append(k.digests, sha256.Sum256([]byte(key)))
		}
	}
	return k
}

// identify is the key id of the request's bearer key: anonymous when the
// server has no keys, "" when it has and the request holds none of them.
func (k keyring) identify(r *http.Request) string {
	if len(k.digests) == 0 {
		return anonymous
	}
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" { // the scheme is case-insensitive (RFC 7235)
		return ""
	}
	d := sha256.Sum256([]byte(strings.TrimSpace(token)))
	match := 0
	for _, want := range k.digests { // every key is compared: the time says nothing of which matched
		match |= subtle.ConstantTimeCompare(d[:], want[:])
	}
	if match == 0 {
		return ""
	}
	return keyID(d)
}

// keyID names a key in logs and thread names without revealing it: the
// first 12 hex digits of its SHA-256.
func keyID(digest [sha256.Size]byte) string { return hex.EncodeToString(digest[:6]) }

// inFlight bounds the turns each key runs at once, so one client cannot
// take every model slot of the server.
type inFlight struct {
	mu    sync.Mutex
	limit int
	turns map[string]int
}

func newInFlight(limit int) *inFlight { return &inFlight{limit: limit, turns: map[string]int{}} }

// acquire takes a slot for key; release gives it back.
func (f *inFlight) acquire(key string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.turns[key] >= f.limit {
		return false
	}
	f.turns[key]++
	return true
}

func (f *inFlight) release(key string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.turns[key]--; f.turns[key] <= 0 {
		delete(f.turns, key)
	}
}
