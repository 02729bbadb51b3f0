package tables

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// ExampleChange is an example whose inputs select another rule than the
// one it records: what an analyst's edit of a threshold in a DMN modeler
// (which does not show the examples) does to them.
type ExampleChange struct {
	File    string         `json:"file,omitempty"`
	Table   string         `json:"table"`
	Example int            `json:"example"` // 1-based, in the table's order
	Inputs  map[string]any `json:"inputs"`
	// Was is the rule the example records, Now the rule its inputs select
	// today; each with that rule's outputs.
	Was        int               `json:"was"`
	Now        int               `json:"now"`
	WasOutputs map[string]string `json:"was_outputs,omitempty"`
	NowOutputs map[string]string `json:"now_outputs,omitempty"`
}

// String says the change in one line: file, table, example, inputs, and
// the old and new rule with their outputs.
func (c ExampleChange) String() string {
	var b strings.Builder
	if c.File != "" {
		b.WriteString(c.File + ": ")
	}
	fmt.Fprintf(&b, "%s example %d (%s): rule %d%s → rule %d%s",
		c.Table, c.Example, inputList(c.Inputs), c.Was, outputList(c.WasOutputs), c.Now, outputList(c.NowOutputs))
	return b.String()
}

// ExampleChanges evaluates every example the table carries and returns
// those that no longer select their rule. An example whose inputs the
// table refuses (a value outside a column's range) is an error, since no
// rule can be recorded for it.
func (t *Table) ExampleChanges() ([]ExampleChange, error) {
	var changes []ExampleChange
	for n, e := range t.Examples {
		values := make([]any, len(t.Inputs))
		for j, col := range t.Inputs {
			v, err := t.coerce(j, e.Inputs[col.Name])
			if err != nil {
				return nil, fmt.Errorf("%s example %d: input %w", t.ID, n+1, err)
			}
			values[j] = v
		}
		now := 0
		for i, rule := range t.tests {
			if matchesAll(rule, values) {
				now = i + 1
				break
			}
		}
		if now != e.Rule {
			changes = append(changes, ExampleChange{
				Table: t.ID, Example: n + 1, Inputs: e.Inputs,
				Was: e.Rule, Now: now, WasOutputs: t.ruleOutputs(e.Rule), NowOutputs: t.ruleOutputs(now),
			})
		}
	}
	return changes, nil
}

// ruleOutputs is rule n's outputs by column name; nil for no rule.
func (t *Table) ruleOutputs(n int) map[string]string {
	if n < 1 || n > len(t.Rules) {
		return nil
	}
	out := make(map[string]string, len(t.Outputs))
	for k, c := range t.Outputs {
		out[c.Name] = t.Rules[n-1].Outputs[k]
	}
	return out
}

func inputList(in map[string]any) string {
	parts := make([]string, 0, len(in))
	for _, k := range slices.Sorted(maps.Keys(in)) {
		if in[k] == nil {
			parts = append(parts, k+"=null")
			continue
		}
		parts = append(parts, fmt.Sprintf("%s=%v", k, in[k]))
	}
	return strings.Join(parts, " ")
}

func outputList(out map[string]string) string {
	if out == nil {
		return " (no rule)"
	}
	parts := make([]string, 0, len(out))
	for _, k := range slices.Sorted(maps.Keys(out)) {
		parts = append(parts, k+"="+out[k])
	}
	return " (" + strings.Join(parts, ", ") + ")"
}
