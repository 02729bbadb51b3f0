package memory

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// scalars is the filter as JSON would decode it, so that a Go 1 and a
// stored 1.0 are both numbers.
func scalars(filter map[string]any) (map[string]any, error) {
	if len(filter) == 0 {
		return nil, nil
	}
	b, err := json.Marshal(filter)
	if err != nil {
		return nil, fmt.Errorf("filter: %w", err)
	}
	return decode(b)
}

// decode reads a JSON object keeping numbers exact.
func decode(b []byte) (map[string]any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var m map[string]any
	return m, d.Decode(&m)
}

// matches says whether value has every field of want equal to it.
func matches(value json.RawMessage, want map[string]any) bool {
	have, err := decode(value)
	if err != nil {
		return false
	}
	for field, w := range want {
		h, ok := have[field]
		if !ok || !equal(h, w) {
			return false
		}
	}
	return true
}

// equal compares JSON scalars; numbers by exact value, as Postgres's
// numeric does, so 1, 1.0 and 1e0 are equal and 0.1 is not 0.1000001.
func equal(have, want any) bool {
	hn, hok := have.(json.Number)
	wn, wok := want.(json.Number)
	if hok && wok {
		return canonical(string(hn)) == canonical(string(wn))
	}
	switch have.(type) {
	case map[string]any, []any:
		return false // a filter holds scalars only
	}
	return have == want
}

// stringsOf returns the strings of a JSON value, where a text search looks.
func stringsOf(v json.RawMessage) []string {
	var x any
	if json.Unmarshal(v, &x) != nil {
		return nil
	}
	var out []string
	var walk func(any)
	walk = func(x any) {
		switch x := x.(type) {
		case string:
			out = append(out, x)
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(x)
	return out
}

// canonical writes a JSON number as sign, digits without leading or
// trailing zeros, and exponent: equal values, equal strings. It works on
// the digits rather than with math/big, which would spend seconds and
// megabytes on a stored 1e999999.
func canonical(n string) string {
	sign := ""
	if strings.HasPrefix(n, "-") {
		sign, n = "-", n[1:]
	}
	mant, exp, _ := strings.Cut(strings.ToLower(n), "e")
	e := 0
	if exp != "" {
		var err error
		if e, err = strconv.Atoi(exp); err != nil {
			return sign + n // an exponent beyond int: compared as written
		}
	}
	whole, frac, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(whole+frac, "0")
	e -= len(frac)
	if digits == "" {
		return "0" // -0 and 0e5 are 0
	}
	trimmed := strings.TrimRight(digits, "0")
	e += len(digits) - len(trimmed)
	return sign + trimmed + "e" + strconv.Itoa(e)
}
