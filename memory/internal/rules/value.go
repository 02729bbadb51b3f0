package rules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// Value checks an item's value: a JSON object of at most MaxValueBytes
// that Postgres's jsonb can hold too. jsonb refuses the escape \u0000 and
// unpaired UTF-16 surrogates, which encoding/json accepts; refusing them
// everywhere keeps a value that one store takes from failing in another.
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

// escapes finds the \u escapes of valid JSON v that jsonb refuses.
func escapes(v []byte) error {
	inString, pendingHigh := false, false
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !inString {
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
