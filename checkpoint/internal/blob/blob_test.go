package blob

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func join(t *testing.T, pieces []Piece) []byte {
	t.Helper()
	byHash := map[string][]byte{}
	for _, p := range pieces {
		if old, ok := byHash[p.Hash]; ok {
			require.Equal(t, old, p.Data, "one name, one content")
		}
		byHash[p.Hash] = p.Data
		require.Equal(t, Hash(p.Data), p.Hash)
	}
	out, err := Join(Hashes(pieces), func(h string) ([]byte, bool) { d, ok := byHash[h]; return d, ok })
	require.NoError(t, err)
	return out
}

func TestSplitJoinsBackByteForByte(t *testing.T) {
	long := strings.Repeat("y", 50<<10)
	cases := map[string]string{
		"empty object":         `{}`,
		"object":               `{"a":1,"b":[1,2,{"c":","}],"d":"x,y}"}`,
		"spaces":               "{ \"a\" : 1 ,\n \"b\":2 }",
		"escaped quotes":       `{"a":"he said \"x,y\" \\","b":{"c":"}"}}`,
		"not an object":        `[1,2,3]`,
		"a string":             `"` + long + `"`,
		"leading space":        ` {"a":1}`,
		"corrupt":              `{"a":[1,2,"b":}}}],,"`,
		"unterminated string":  `{"a":"` + long,
		"long field":           `{"small":1,"long":"` + long + `","after":2}`,
		"many small fields":    manySmall(300),
		"comma at top level 0": `,,,`,
	}
	for name, s := range cases {
		t.Run(name, func(t *testing.T) {
			pieces := Split([]byte(s))
			assert.Equal(t, s, string(join(t, pieces)))
		})
	}
	assert.Empty(t, Split(nil))
}

func TestSplitRandomBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte(`{}[]",\:ab `)
	for range 300 {
		b := make([]byte, r.IntN(40<<10))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		if len(b) > 0 && r.IntN(2) == 0 {
			b[0] = '{'
		}
		require.True(t, bytes.Equal(b, join(t, Split(b))))
	}
}

func manySmall(n int) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"f%d":%d`, i, i)
	}
	b.WriteString("}")
	return b.String()
}

type msg struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type state struct {
	Session  string `json:"session"`
	Turn     int    `json:"turn"`
	Messages []msg  `json:"messages"`
	Answer   string `json:"answer"`
	Notes    []msg  `json:"notes"`
}

func history(from, to int) []msg {
	var out []msg
	for i := from; i < to; i++ {
		out = append(out, msg{"user", fmt.Sprintf("question %d about the settings of the guard", i)},
			msg{"assistant", fmt.Sprintf("answer %d: open the configuration, find the guard section and set mode %d", i, i%7)})
	}
	return out
}

// newBytes is what a store writes for next when it holds prev's pieces.
func newBytes(prev, next []byte) int {
	have := map[string]bool{}
	for _, p := range Split(prev) {
		have[p.Hash] = true
	}
	n := 0
	for _, p := range Split(next) {
		if !have[p.Hash] {
			n += len(p.Data)
			have[p.Hash] = true
		}
	}
	return n
}

func TestOnlyChangesAreNew(t *testing.T) {
	encode := func(s state) []byte { b, _ := json.Marshal(s); return b }
	base := state{Session: "s", Turn: 7, Messages: history(0, 200), Answer: "done", Notes: history(0, 40)}
	prev := encode(base)
	require.Greater(t, len(prev), 40<<10)

	same := newBytes(prev, prev)
	assert.Zero(t, same, "an unchanged state writes nothing")

	turn := base
	turn.Turn = 8
	assert.Less(t, newBytes(prev, encode(turn)), 1<<10, "a small field writes its small group")

	grown := base
	grown.Messages = history(0, 202)
	assert.Less(t, newBytes(prev, encode(grown)), 2*16<<10, "a history that grows writes its last chunks")

	carried := base
	carried.Messages = history(2, 202) // the oldest turn dropped, one added
	n := newBytes(prev, encode(carried))
	assert.Less(t, n, len(prev)/2, "a history that moves on writes its first and last chunks: %d of %d bytes", n, len(prev))
}

func TestManifest(t *testing.T) {
	m := Hashes(Split([]byte(manySmall(2000))))
	require.Greater(t, len(m), 3)
	got, err := DecodeManifest(EncodeManifest(m))
	require.NoError(t, err)
	assert.Equal(t, m, got)
	assert.Equal(t, "[]", EncodeManifest(nil))
	_, err = DecodeManifest("[")
	assert.ErrorContains(t, err, "corrupt manifest")
	assert.Equal(t, map[string]int{"a": 2, "b": 1}, Counts([]string{"a", "b", "a"}))
}

func TestChunkCount(t *testing.T) {
	big := make([]byte, 16<<20)
	r := rand.New(rand.NewPCG(3, 4))
	for i := range big {
		big[i] = byte(r.Uint32())
	}
	n := len(Split(big))
	assert.True(t, n >= 8 && n <= 200, "a 16 MiB state is some tens of pieces, not thousands: %d", n)
}

// BenchmarkSplit cuts and names a 60 KB state, a default turn's.
func BenchmarkSplit(b *testing.B) {
	s, _ := json.Marshal(state{Session: "s", Turn: 7, Messages: history(0, 120), Answer: "done", Notes: history(0, 80)})
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		Split(s)
	}
}
