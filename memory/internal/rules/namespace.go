package rules

import "strings"

// Sep ends every part of an encoded namespace. Parts may hold no control
// character (Part), so Sep sorts below every byte of a part: the encoded
// namespaces under a prefix are exactly the strings that start with the
// encoded prefix, and byte order of encodings is the order of the parts.
// That lets SQL and Redis find a prefix with one index range scan.
const Sep = "\x1f"

// Encode joins the parts of a namespace, each followed by Sep.
func Encode(parts []string) string {
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p)
		b.WriteString(Sep)
	}
	return b.String()
}

// Decode splits an encoded namespace into its parts.
func Decode(s string) []string {
	parts := strings.Split(s, Sep)
	return parts[:len(parts)-1] // the empty string after the last Sep
}

// Range returns the bounds lo <= n < hi of the encoded namespaces under
// prefix; bounded is false for the empty prefix, which takes every one.
// hi is lo with its final Sep raised by one: a string between them shares
// lo's bytes up to that Sep and then has the Sep itself.
func Range(prefix []string) (lo, hi string, bounded bool) {
	if len(prefix) == 0 {
		return "", "", false
	}
	lo = Encode(prefix)
	return lo, lo[:len(lo)-1] + "\x20", true
}

// Under says whether the namespace parts start with prefix.
func Under(parts, prefix []string) bool {
	if len(prefix) > len(parts) {
		return false
	}
	for i, p := range prefix {
		if parts[i] != p {
			return false
		}
	}
	return true
}
