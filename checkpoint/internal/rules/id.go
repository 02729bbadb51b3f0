package rules

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
)

// IDFormat builds an ID from a thread's sequence number and a Suffix. The
// sequence is padded to 19 digits, wide enough for any int64, so the IDs of a
// thread compare as strings in the order they were Put. Redis builds IDs in a
// Lua script with string.format, which shares these verbs with Go's fmt.
const IDFormat = "%019d-%s"

// NewID returns the ID of the seq-th checkpoint of a thread.
func NewID(seq int64) string {
	return fmt.Sprintf(IDFormat, seq, Suffix())
}

// Suffix returns the random part of an ID, which keeps a new checkpoint from
// taking the ID of a deleted one.
func Suffix() string {
	var b [4]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails since Go 1.24
	return hex.EncodeToString(b[:])
}
