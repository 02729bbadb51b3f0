package rules

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Namespace checks the namespace of an item: 1 to MaxParts parts.
func Namespace(parts []string) error {
	if len(parts) == 0 {
		return fmt.Errorf("namespace is empty; it needs 1 to %d parts", MaxParts)
	}
	return Prefix("namespace", parts)
}

// Prefix checks a namespace prefix, which may have no parts (all of them).
func Prefix(field string, parts []string) error {
	if len(parts) > MaxParts {
		return fmt.Errorf("%s has %d parts; the limit is %d", field, len(parts), MaxParts)
	}
	for i, p := range parts {
		if err := text(fmt.Sprintf("%s[%d]", field, i), p, MaxPartBytes); err != nil {
			return err
		}
	}
	return nil
}

// Key checks an item's key.
func Key(key string) error { return text("key", key, MaxKeyBytes) }

// text checks a namespace part or key: 1 to limit bytes of UTF-8 without
// control characters, because the stores end namespace parts with one
// (Sep) and Postgres text refuses NUL.
func text(field, v string, limit int) error {
	switch {
	case v == "":
		return fmt.Errorf("%s is empty; it needs 1 to %d bytes", field, limit)
	case len(v) > limit:
		return fmt.Errorf("%s is %d bytes; the limit is %d bytes", field, len(v), limit)
	case !utf8.ValidString(v):
		return fmt.Errorf("%s %q is not valid UTF-8", field, v)
	}
	for _, r := range v {
		if unicode.IsControl(r) {
			return fmt.Errorf("%s %q holds the control character %U; none is allowed", field, v, r)
		}
	}
	return nil
}

// TTL checks how long an item lives: 0 is for ever.
func TTL(ttl time.Duration) error {
	if ttl < 0 || ttl > MaxTTL {
		return fmt.Errorf("ttl is %s; it must be from 0 (never expires) to %s", ttl, MaxTTL)
	}
	return nil
}

// Put checks the arguments of Store.Put.
func Put(parts []string, key string, value []byte, ttl time.Duration) error {
	if err := Namespace(parts); err != nil {
		return err
	}
	if err := Key(key); err != nil {
		return err
	}
	if err := Value(value); err != nil {
		return err
	}
	return TTL(ttl)
}

// Query checks the arguments of Store.Search.
func Query(prefix []string, filter map[string]any, text string, limit, offset int) error {
	if err := Prefix("prefix", prefix); err != nil {
		return err
	}
	if err := Filter(filter); err != nil {
		return err
	}
	if len(text) > MaxTextBytes {
		return fmt.Errorf("text is %d bytes; the limit is %d bytes", len(text), MaxTextBytes)
	}
	if !utf8.ValidString(text) {
		return fmt.Errorf("text %q is not valid UTF-8", text)
	}
	return Page(limit, offset)
}

// Page checks a Limit and an Offset.
func Page(limit, offset int) error {
	if limit < 0 || limit > MaxLimit {
		return fmt.Errorf("limit is %d; it must be from 0 (%d) to %d", limit, DefaultLimit, MaxLimit)
	}
	if offset < 0 {
		return fmt.Errorf("offset is %d; it must be 0 or more", offset)
	}
	return nil
}

// Filter checks a filter: named top-level fields, each compared with a JSON
// scalar. Objects and arrays are refused because Postgres answers a filter
// by containment, which for them is not equality.
func Filter(filter map[string]any) error {
	if len(filter) > MaxFilterField {
		return fmt.Errorf("filter has %d fields; the limit is %d", len(filter), MaxFilterField)
	}
	for field, v := range filter {
		if field == "" || len(field) > MaxKeyBytes || !utf8.ValidString(field) {
			return fmt.Errorf("filter field %q must be 1 to %d bytes of UTF-8", field, MaxKeyBytes)
		}
		switch x := v.(type) {
		case string:
			if !utf8.ValidString(x) || strings.IndexByte(x, 0) >= 0 {
				return fmt.Errorf("filter[%q] %q must be UTF-8 without NUL, as a stored value is", field, x)
			}
		case nil, bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		case float64:
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("filter[%q] is %v, which JSON cannot hold", field, x)
			}
		case float32:
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return fmt.Errorf("filter[%q] is %v, which JSON cannot hold", field, x)
			}
		case json.Number:
			if _, err := x.Float64(); err != nil || !json.Valid([]byte(x)) {
				return fmt.Errorf("filter[%q] is %q; it must be a JSON number within float64's range", field, x)
			}
		default:
			return fmt.Errorf("filter[%q] is a %T; a filter compares scalars (string, number, bool, nil)", field, v)
		}
	}
	return nil
}
