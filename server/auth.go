package server

import (
	"bufio"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
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

// budgetOf names whose turn slots a request takes: its key's, or, on a
// server without keys, its client's, so that one client cannot hold every
// slot while others wait. X-Forwarded-For is not read: any client can
// send it, so a budget named by it would be one the client picks; behind
// a proxy every keyless client shares the proxy's budget (give keys).
func budgetOf(r *http.Request, key string) string {
	if key != anonymous {
		return key
	}
	return "client " + clientOf(r.RemoteAddr)
}

// clientOf is the client of a remote address: its IPv4 address, or its
// IPv6 /64, since one host is given a whole /64 and would otherwise have
// a budget per address it picks.
func clientOf(remoteAddr string) string {
	ap, err := netip.ParseAddrPort(remoteAddr)
	if err != nil { // not IP:port (a unix socket, a test's recorder): taken as it is
		return remoteAddr
	}
	ip := ap.Addr().WithZone("").Unmap()
	if ip.Is4() {
		return ip.String()
	}
	p, _ := ip.Prefix(64) // cannot fail: 64 bits of an IPv6 address
	return p.String()
}

// inFlight bounds the turns each budget (a key, or a client without keys)
// runs at once, so one client cannot take every model slot of the server.
type inFlight struct {
	mu    sync.Mutex
	limit int
	turns map[string]int
}

func newInFlight(limit int) *inFlight { return &inFlight{limit: limit, turns: map[string]int{}} }

// acquire takes a slot of a budget; release gives it back.
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

// Roles of a keys file (ReadKeys).
const (
	RoleAsker    = "asker"
	RoleReviewer = "reviewer"
)

// ReadKeys reads a keys file: one key a line, then its role, asker (the
// default) or reviewer, after a space; blank lines and lines starting
// with '#' are skipped. Askers go to Options.APIKeys, reviewers to
// Options.ReviewerKeys. Errors name the line, never the key.
func ReadKeys(r io.Reader) (askers, reviewers []string, err error) {
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Fields(text)
		role := RoleAsker
		switch {
		case len(fields) > 2:
			return nil, nil, fmt.Errorf("line %d: a key, then its role (asker or reviewer); %d words", line, len(fields))
		case len(fields) == 2:
			role = fields[1]
		}
		switch role {
		case RoleAsker:
			askers = append(askers, fields[0])
		case RoleReviewer:
			reviewers = append(reviewers, fields[0])
		default:
			return nil, nil, fmt.Errorf("line %d: role %q is not asker or reviewer", line, role)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, err
	}
	if len(askers)+len(reviewers) == 0 {
		return nil, nil, errors.New("no key in it")
	}
	return askers, reviewers, nil
}
