package rules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Value checks an item's value: a JSON object of at most MaxValueBytes
// that Postgres's jsonb can hold too. jsonb refuses the escape \u0000,
// unpaired UTF-16 surrogates and numbers out of its range, which
// encoding/json accepts; refusing them everywhere keeps a value that one
// store takes from failing in another.
func Value(v []byte) error {
	if len(v) > MaxValueBytes {
		return fmt.Errorf("value is %d bytes; the limit is %d KiB (%d bytes)", len(v), MaxValueBytes>>10, MaxValueBytes)
	}
	if !json.Valid(v) {
		return fmt.Errorf("value is not valid JSON; it must be a JSON object of at most %d KiB", MaxValueBytes>>10)
	}
	if t := bytes.TrimLeft(v, " \t\r\n"); t[0] != '{' {
		return fmt.Errorf("value is a JSON %s; it must be a JSON object ({...}), whose fields a filter can name", kind(t[0]))
	}
	return escapes(v)
}

// kind names the JSON type that starts with c.
func kind(c byte) string {
	switch c {
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	default:
		return "number"
	}
}

// Bounds of a number in a value. Postgres's numeric, behind jsonb, refuses
// a number with more than 16383 digits after the point (1e-16384) or
// 131072 before it; these bounds are well inside and simple to state.
const (
	maxNumberBytes = 100
	maxExponent    = 300
)

// escapes finds what Postgres's jsonb refuses in valid JSON v: the escapes
// \u0000 and unpaired surrogates inside strings, and numbers beyond its range
// outside them.
func escapes(v []byte) error {
	inString, pendingHigh := false, false
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !inString {
			if c == '-' || c >= '0' && c <= '9' {
				n := number(v[i:])
				if err := checkNumber(string(n), i); err != nil {
					return err
				}
				i += len(n) - 1
			}
			inString = c == '"'
			continue
		}
		var u uint64 = 1 << 20 // not a \u escape
		switch {
		case c == '"':
			inString = false
		case c == '\\' && v[i+1] == 'u':
			u, _ = strconv.ParseUint(string(v[i+2:i+6]), 16, 32) // valid JSON: four hex digits
			i += 5
		case c == '\\':
			i++ // a one-letter escape
		}
		low := u >= 0xDC00 && u <= 0xDFFF
		switch {
		case u == 0:
			return fmt.Errorf(`value holds the escape \u0000 at byte %d, which Postgres cannot store`, i-5)
		case pendingHigh && !low, !pendingHigh && low:
			return fmt.Errorf("value holds an unpaired UTF-16 surrogate escape near byte %d, which Postgres cannot store", i)
		}
		pendingHigh = u >= 0xD800 && u <= 0xDBFF
	}
	return nil // valid JSON closes every string, so no surrogate is left pending
}

// number returns the number token at the start of v.
func number(v []byte) []byte {
	n := 0
	for n < len(v) && strings.IndexByte("+-.0123456789eE", v[n]) >= 0 {
		n++
	}
	return v[:n]
}

// checkNumber checks the number n found at byte at.
func checkNumber(n string, at int) error {
	if len(n) > maxNumberBytes {
		return fmt.Errorf("value holds a number of %d characters at byte %d; the limit is %d", len(n), at, maxNumberBytes)
	}
	if i := strings.IndexAny(n, "eE"); i >= 0 {
		if e, err := strconv.Atoi(n[i+1:]); err != nil || e < -maxExponent || e > maxExponent {
			return fmt.Errorf("value holds the number %s at byte %d; its exponent must be from -%d to %d", n, at, maxExponent, maxExponent)
		}
	}
	return nil
}
