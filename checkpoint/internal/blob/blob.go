// Package blob cuts a checkpoint's state into the pieces the stores keep
// once per thread, so that a checkpoint writes only what changed since the
// thread's earlier ones (as LangGraph keeps a blob per channel version).
//
// A state is cut where its top-level JSON fields meet (the small fields
// next to each other go together, so that there are not dozens of tiny
// pieces), and a long field, or a long state that is no object, is cut
// again where its content says (content-defined chunking with a gear hash,
// as backup tools do), so that a history that grows at its end and loses
// its oldest entries changes only its first and last pieces. The pieces
// are consecutive slices of the state: joined in order they are the state
// byte for byte, whatever it holds (corrupt JSON included). Each is named
// by a hash of its content; a checkpoint records the list of names, its
// manifest.
package blob

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/bits"
	"strings"
)

// Piece is a slice of a state and its name.
type Piece struct {
	Hash string
	Data []byte
}

// Bounds of the cutting.
const (
	// groupBytes: small fields go together until a piece holds this much,
	// and a field this long stands alone.
	groupBytes = 1 << 10
	// chunkAbove: a piece longer than this is cut by its content.
	chunkAbove = 8 << 10
	// minAvg and maxAvg bound the average content-defined chunk, which is
	// a 32nd of the piece's size rounded up to a power of two, so that a
	// piece of any size has some tens of chunks at most.
	minAvg = 4 << 10
	maxAvg = 1 << 20
)

// Split cuts state into pieces whose data, joined in order, is state.
func Split(state []byte) []Piece {
	if len(state) == 0 {
		return nil
	}
	var out []Piece
	for _, p := range fields(state) {
		for _, c := range chunks(p) {
			out = append(out, Piece{Hash: Hash(c), Data: c})
		}
	}
	return out
}

// Hash names a piece: the first 128 bits of its SHA-256, base64url.
func Hash(data []byte) string {
	sum := sha256.Sum256(data)
	return base64.RawURLEncoding.EncodeToString(sum[:16])
}

// Hashes are the names of pieces, in order: a manifest.
func Hashes(pieces []Piece) []string {
	out := make([]string, len(pieces))
	for i, p := range pieces {
		out[i] = p.Hash
	}
	return out
}

// Counts are how many times each name appears in a manifest (a piece that
// repeats within a state is kept once and counted as often).
func Counts(manifest []string) map[string]int {
	out := make(map[string]int, len(manifest))
	for _, h := range manifest {
		out[h]++
	}
	return out
}

// Join rebuilds a state from its manifest and the pieces' data by name.
// A missing piece is an error: the store lost data it should have kept.
func Join(manifest []string, data func(hash string) ([]byte, bool)) ([]byte, error) {
	parts := make([][]byte, len(manifest))
	n := 0
	for i, h := range manifest {
		d, ok := data(h)
		if !ok {
			return nil, fmt.Errorf("state piece %s is missing", h)
		}
		parts[i] = d
		n += len(d)
	}
	out := make([]byte, 0, n)
	for _, p := range parts {
		out = append(out, p...)
	}
	return out, nil
}

// EncodeManifest is a manifest as the SQLite store and the headers keep
// it: a JSON array of names. The names need no escaping.
func EncodeManifest(manifest []string) string {
	if len(manifest) == 0 {
		return "[]"
	}
	return `["` + strings.Join(manifest, `","`) + `"]`
}

// DecodeManifest reads EncodeManifest's form.
func DecodeManifest(s string) ([]string, error) {
	var out []string
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		return nil, fmt.Errorf("corrupt manifest: %w", err)
	}
	return out, nil
}

// fields cuts a JSON object before the commas between its top-level
// fields, keeping small neighbours together; anything that does not start
// with '{' is one piece. The scan only tracks strings and nesting, so a
// malformed state is still cut into slices that join back as they were.
func fields(state []byte) [][]byte {
	if state[0] != '{' {
		return [][]byte{state}
	}
	var cuts []int // positions of the top-level commas
	depth, inString := 0, false
	for i := 0; i < len(state); i++ {
		if inString { // most of a state is strings: find their ends by IndexByte
			j := bytes.IndexByte(state[i:], '"')
			if j < 0 {
				break
			}
			i += j
			if !escaped(state, i) {
				inString = false
			}
			continue
		}
		switch state[i] {
		case '"':
			inString = true
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case ',':
			if depth == 1 {
				cuts = append(cuts, i)
			}
		}
	}
	var out [][]byte
	start := 0
	for k, cut := range cuts {
		next := len(state)
		if k+1 < len(cuts) {
			next = cuts[k+1]
		}
		if cut-start >= groupBytes || next-cut >= groupBytes {
			out = append(out, state[start:cut])
			start = cut
		}
	}
	return append(out, state[start:])
}

// escaped says whether the quote at i follows an odd run of backslashes.
func escaped(s []byte, i int) bool {
	n := 0
	for i--; i >= 0 && s[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}

// chunks cuts a long piece where a gear hash of its last bytes has its top
// bits clear, within a quarter and four times the average chunk size.
func chunks(p []byte) [][]byte {
	if len(p) <= chunkAbove {
		return [][]byte{p}
	}
	avg := max(minAvg, min(maxAvg, 1<<bits.Len(uint(len(p)/32))))
	lo, hi := avg/4, avg*4
	shift := 64 - bits.Len(uint(avg)) + 1 // the top log2(avg) bits
	var out [][]byte
	start := 0
	for start < len(p) {
		// The hash depends on the last 64 bytes only, so it starts 64
		// bytes before the shortest chunk ends.
		end := min(start+hi, len(p))
		i := min(start+lo-64, end)
		var h uint64
		for ; i < end; i++ {
			h = h<<1 + gear[p[i]]
			if h>>shift == 0 && i+1-start >= lo {
				i++
				break
			}
		}
		out = append(out, p[start:i])
		start = i
	}
	return out
}

// gear is the gear hash's table: fixed pseudo-random numbers (splitmix64
// from a fixed seed). Changing it changes where states are cut, which
// costs one write of every state's pieces, nothing more.
var gear = func() (t [256]uint64) {
	x := uint64(0x5347524752415048) // "SGRGRAPH"
	for i := range t {
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		t[i] = z ^ z>>31
	}
	return t
}()
