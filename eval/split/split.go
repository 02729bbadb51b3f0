// Package split places each labelled row in the development or the
// held-out part of its set (docs/eval.md, "Development and held-out
// parts"): the one definition that sgrgraph eval, which reports each part,
// and the offline guard's training, which learns from development parts
// only, share.
package split

import "hash/fnv"

// Part is the side of a set a row falls on: development, where rules,
// thresholds and training rows may be chosen, or held out, where they are
// only measured.
type Part string

// The two parts of every set.
const (
	Dev     Part = "dev"
	HeldOut Part = "heldout"
)

// heldOutPercent is the share of the keys, out of 100, in the held-out part.
const heldOutPercent = 30

// Of is the part of a row key: held out when the FNV-1a (64-bit) hash of the
// key's bytes, modulo 100, is below 30. The set's name is not hashed, so a
// message asked in several sets is on the same side in each.
func Of(key string) Part {
	h := fnv.New64a()
	_, _ = h.Write([]byte(key))
	if h.Sum64()%100 < heldOutPercent {
		return HeldOut
	}
	return Dev
}

// Key is the stable key that places a row in its part: its id, else its
// group (one request phrased many ways), else its pair (a message and its
// translations), else its message. Rows that share a key share a part.
func Key(id, group, pair, message string) string {
	for _, k := range []string{id, group, pair} {
		if k != "" {
			return k
		}
	}
	return message
}
