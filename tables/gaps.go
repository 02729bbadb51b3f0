package tables

import (
	"fmt"
	"math"
	"slices"
)

// maxGapCases bounds the input combinations Gaps tries.
const maxGapCases = 200_000

// Gaps finds inputs no rule matches: it tries every allowed value of each
// string and bool column and, for each number column, every bound any
// rule or the column's range names, just below and just above it, within
// the column's domain. Inputs left out (DMN's null) are not tried: the
// turn gives every input. Findings name the inputs.
func Gaps(t *Table) []string {
	cands := make([][]any, len(t.Inputs))
	cases := 1
	for j := range t.Inputs {
		cands[j] = t.candidates(j)
		cases *= max(len(cands[j]), 1)
		if cases > maxGapCases {
			return []string{fmt.Sprintf("%s: too many input combinations to check for gaps (over %d)", t.ID, maxGapCases)}
		}
	}
	var findings []string
	values := make([]any, len(t.Inputs))
	var walk func(j int)
	walk = func(j int) {
		if len(findings) >= 5 {
			return // enough to act on
		}
		if j == len(values) {
			for _, rule := range t.tests {
				if matchesAll(rule, values) {
					return
				}
			}
			findings = append(findings, fmt.Sprintf("%s has a gap: no rule matches %s", t.ID, describe(t.Inputs, values)))
			return
		}
		for _, v := range cands[j] {
			values[j] = v
			walk(j + 1)
		}
	}
	walk(0)
	return findings
}

// candidates are the values of input column j worth trying.
func (t *Table) candidates(j int) []any {
	col := t.Inputs[j]
	switch col.Type {
	case TypeBool:
		return []any{"true", "false"}
	case TypeString:
		if len(col.Values) > 0 {
			return toAny(col.Values)
		}
		seen := []string{"any other value"}
		for _, rule := range t.tests {
			for _, s := range rule[j].strings {
				if !slices.Contains(seen, s) {
					seen = append(seen, s)
				}
			}
		}
		return toAny(seen)
	}
	var bounds []float64
	add := func(n numTest) {
		if n.op == "range" {
			bounds = append(bounds, n.lo, n.hi)
		} else {
			bounds = append(bounds, n.value)
		}
	}
	for _, n := range t.ranges[j].numbers {
		add(n)
	}
	for _, rule := range t.tests {
		for _, n := range rule[j].numbers {
			add(n)
		}
	}
	if len(bounds) == 0 {
		bounds = []float64{0}
	}
	var out []any
	for _, b := range bounds {
		if math.IsInf(b, 0) {
			continue
		}
		step := 1e-9 * max(1, math.Abs(b))
		for _, v := range []float64{b - step, b, b + step} {
			if !slices.Contains(out, any(v)) && t.ranges[j].matches(v) {
				out = append(out, v)
			}
		}
	}
	return out
}

func toAny(values []string) []any {
	out := make([]any, len(values))
	for i, v := range values {
		out[i] = v
	}
	return out
}
