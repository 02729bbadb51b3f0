package tables

import (
	"fmt"
	"slices"
)

// Lint finds rules that can never be selected and input columns that never
// change the outcome, in messages a table author can act on.
func Lint(t *Table) []string {
	var findings []string
	for j := range t.Rules {
		for i := 0; i < j; i++ {
			if t.covers(i, j) {
				findings = append(findings, fmt.Sprintf(
					"%s row %d is unreachable: row %d already matches every case it matches", t.ID, j+1, i+1))
				break
			}
		}
	}
	for c, col := range t.Inputs {
		if len(t.Rules) > 1 && t.allAny(c) {
			findings = append(findings, fmt.Sprintf("%s input column %s never changes the outcome", t.ID, col.Name))
		}
	}
	return findings
}

// covers reports, conservatively, whether rule i matches everything rule j does.
func (t *Table) covers(i, j int) bool {
	for c, col := range t.Inputs {
		a, b := t.tests[i][c], t.tests[j][c]
		switch {
		case a.any:
		case a.String() == b.String(): // the same test, however it is written
		case len(col.Values) > 0 && !b.any && superset(accepted(a, col.Values), accepted(b, col.Values)):
		default:
			return false
		}
	}
	return true
}

func accepted(t test, values []string) []string {
	var out []string
	for _, v := range values {
		if t.matches(v) {
			out = append(out, v)
		}
	}
	return out
}

func superset(a, b []string) bool {
	for _, v := range b {
		if !slices.Contains(a, v) {
			return false
		}
	}
	return true
}

func (t *Table) allAny(c int) bool {
	for i := range t.Rules {
		if !t.tests[i][c].any {
			return false
		}
	}
	return true
}
