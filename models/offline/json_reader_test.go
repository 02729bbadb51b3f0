package offline

import (
	"bytes"
	"testing"
)

// TestPlainWordIsPlainByteByByte: the word test agrees with the byte table
// for every byte in every place, among plain bytes and among others.
func TestPlainWordIsPlainByteByByte(t *testing.T) {
	for _, fill := range []byte{'a', 0x80, ' ', '"'} {
		for at := range 8 {
			for c := range 256 {
				w := bytes.Repeat([]byte{fill}, 8)
				w[at] = byte(c)
				want := true
				for _, b := range w {
					want = want && plain[b]
				}
				if got := plainWord(string(w)); got != want {
					t.Fatalf("plainWord(%q) = %v, want %v", w, got, want)
				}
			}
		}
	}
}
