package tables

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// compileDomain checks what a column allows and compiles its Range. Values
// belong to string columns and a Range to number columns: anywhere else
// they would be silently ignored.
func compileDomain(c Column) (test, error) {
	if len(c.Values) > 0 && c.Type != TypeString {
		return test{}, fmt.Errorf("values apply to string columns only, not to %s", c.Type)
	}
	if strings.TrimSpace(c.Range) == "" {
		return test{any: true}, nil
	}
	if c.Type != TypeNumber {
		return test{}, fmt.Errorf("range %q applies to number columns only, not to %s", c.Range, c.Type)
	}
	r, err := parseUnary(c.Range)
	if err != nil {
		return test{}, fmt.Errorf("range %q: %w", c.Range, err)
	}
	if r.any || len(r.strings) > 0 {
		return test{}, fmt.Errorf("range %q: want a test over numbers such as [0..1] or >= 0", c.Range)
	}
	return r, nil
}

// coerce converts an input to the type of input column j (float64 for
// numbers, string for strings and bools) and refuses a value outside the
// column's domain, naming the column and the limit.
func (t *Table) coerce(j int, raw any) (any, error) {
	col := t.Inputs[j]
	if raw == nil {
		return nil, nil // DMN's null: only "-" matches it
	}
	switch col.Type {
	case TypeNumber:
		f, err := number(col, raw)
		if err != nil {
			return nil, err
		}
		if t.ranges != nil && !t.ranges[j].matches(f) {
			return nil, fmt.Errorf("%s: %g is outside its range %s", col.Name, f, col.Range)
		}
		return f, nil
	case TypeBool:
		switch x := raw.(type) {
		case bool:
			return strconv.FormatBool(x), nil
		case string:
			if b, err := strconv.ParseBool(strings.TrimSpace(x)); err == nil {
				return strconv.FormatBool(b), nil
			}
		}
		return nil, fmt.Errorf("%s: %v is not true or false", col.Name, raw)
	}
	s, ok := raw.(string)
	if !ok {
		s = fmt.Sprint(raw)
	}
	if len(col.Values) > 0 && !slices.Contains(col.Values, s) {
		return nil, fmt.Errorf("%s: %q is not one of %s", col.Name, s, quoteAll(col.Values))
	}
	return s, nil
}

// number reads a number input. NaN and the infinities are refused: strconv
// reads "NaN" and "Inf", yet no score or count can be one, and NaN would
// fail every comparison of every rule.
func number(col Column, raw any) (float64, error) {
	var f float64
	switch x := raw.(type) {
	case float64:
		f = x
	case float32:
		f = float64(x)
	case int:
		f = float64(x)
	case int64:
		f = float64(x)
	case string:
		v, ok := readNumber(strings.TrimSpace(x))
		if !ok {
			return 0, fmt.Errorf("%s: %v is not a number", col.Name, raw)
		}
		f = v
	default:
		return 0, fmt.Errorf("%s: %v is not a number", col.Name, raw)
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("%s: %v is not a finite number", col.Name, raw)
	}
	return f, nil
}

// Domain describes the values input column c accepts, as the documentation
// prints it.
func (c Column) Domain() string {
	switch {
	case c.Type == TypeBool:
		return "true or false"
	case c.Type == TypeNumber && strings.TrimSpace(c.Range) != "":
		return "a number " + strings.TrimSpace(c.Range)
	case c.Type == TypeNumber:
		return "any finite number"
	case len(c.Values) > 0:
		return "one of " + quoteAll(c.Values)
	}
	return "any string"
}
