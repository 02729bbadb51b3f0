package tables

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
)

// HitPolicyFirst is the only hit policy: the first matching rule wins, so
// rule order is priority order.
const HitPolicyFirst = "FIRST"

// Column types.
const (
	TypeNumber = "number"
	TypeString = "string"
	TypeBool   = "bool"
)

// Column is one input or output of a table.
type Column struct {
	Name string `json:"name"`
	Type string `json:"type"`
	// Values lists the allowed values of a string input; empty allows any.
	Values []string `json:"values,omitempty"`
	// Range is the domain of a number input, a unary test over numbers such
	// as "[0..1]" or ">= 0"; empty allows any finite number. A value outside
	// it is refused rather than routed, since no rule was written for it.
	Range       string `json:"range,omitempty"`
	Description string `json:"description,omitempty"`
}

// Rule is one row: a unary test per input column and a literal per output column.
type Rule struct {
	Inputs     []string `json:"inputs"`
	Outputs    []string `json:"outputs"`
	Annotation string   `json:"annotation,omitempty"`
}

// Example is an input the table carries with the rule it must select.
type Example struct {
	Inputs map[string]any `json:"inputs"`
	Rule   int            `json:"rule"`
}

// Table is a decision table. Build one with New, which compiles its tests.
type Table struct {
	ID          string    `json:"id"`
	Name        string    `json:"name"`
	Title       string    `json:"title"`
	Description string    `json:"description,omitempty"`
	HitPolicy   string    `json:"hit_policy"`
	Inputs      []Column  `json:"inputs"`
	Outputs     []Column  `json:"outputs"`
	Rules       []Rule    `json:"rules"`
	Examples    []Example `json:"examples,omitempty"`

	tests  [][]test // [rule][input]
	ranges []test   // [input]; any for a column without a Range
	// evaluations counts Evaluate calls, so a test can show that a turn
	// decides each table once per decision.
	evaluations *atomic.Int64
}

// Evaluations is how many times the table has been evaluated.
func (t *Table) Evaluations() int64 {
	if t.evaluations == nil {
		return 0
	}
	return t.evaluations.Load()
}

// Result is the outcome of one evaluation.
type Result struct {
	Table   string            `json:"table"`
	Rule    int               `json:"rule"` // 1-based
	Outputs map[string]string `json:"outputs"`
	// Inputs are the values the rule matched, by input name (null for an
	// input not given), so a record says why its row fired.
	Inputs map[string]any `json:"inputs,omitempty"`
}

// Get returns one output value.
func (r Result) Get(name string) string { return r.Outputs[name] }

// New checks a table and compiles its unary tests. Errors name the table,
// the rule (1-based) and the column.
func New(t Table) (*Table, error) {
	if t.HitPolicy == "" {
		t.HitPolicy = HitPolicyFirst
	}
	if t.HitPolicy != HitPolicyFirst {
		return nil, fmt.Errorf("%s: hit policy %q is not supported (only FIRST)", t.ID, t.HitPolicy)
	}
	for _, c := range append(slices.Clone(t.Inputs), t.Outputs...) {
		if c.Type != TypeNumber && c.Type != TypeString && c.Type != TypeBool {
			return nil, fmt.Errorf("%s: column %s: type %q is not number, string or bool", t.ID, c.Name, c.Type)
		}
	}
	t.ranges = make([]test, len(t.Inputs))
	for j, c := range t.Inputs {
		r, err := compileDomain(c)
		if err != nil {
			return nil, fmt.Errorf("%s: column %s: %w", t.ID, c.Name, err)
		}
		t.ranges[j] = r
	}
	t.tests = make([][]test, len(t.Rules))
	for i, r := range t.Rules {
		if len(r.Inputs) != len(t.Inputs) || len(r.Outputs) != len(t.Outputs) {
			return nil, fmt.Errorf("%s rule %d: has %d inputs and %d outputs, the table %d and %d",
				t.ID, i+1, len(r.Inputs), len(r.Outputs), len(t.Inputs), len(t.Outputs))
		}
		t.tests[i] = make([]test, len(r.Inputs))
		for j, text := range r.Inputs {
			compiled, err := parseUnary(text)
			if err != nil {
				return nil, fmt.Errorf("%s rule %d column %s: %w", t.ID, i+1, t.Inputs[j].Name, err)
			}
			t.tests[i][j] = compiled
		}
	}
	t.evaluations = new(atomic.Int64)
	return &t, nil
}

// Evaluate returns the first rule whose every input test passes.
func (t *Table) Evaluate(in map[string]any) (Result, error) {
	if t.evaluations != nil {
		t.evaluations.Add(1)
	}
	values := make([]any, len(t.Inputs))
	for j, col := range t.Inputs {
		raw, ok := in[col.Name]
		if !ok {
			return Result{}, fmt.Errorf("%s: input %s is missing (inputs: %s)", t.ID, col.Name, t.inputNames())
		}
		v, err := t.coerce(j, raw)
		if err != nil {
			return Result{}, fmt.Errorf("%s: input %w", t.ID, err)
		}
		values[j] = v
	}
	for i, rule := range t.tests {
		if matchesAll(rule, values) {
			out := make(map[string]string, len(t.Outputs))
			for k, col := range t.Outputs {
				out[col.Name] = t.Rules[i].Outputs[k]
			}
			given := make(map[string]any, len(t.Inputs))
			for j, col := range t.Inputs {
				given[col.Name] = values[j]
			}
			return Result{Table: t.ID, Rule: i + 1, Outputs: out, Inputs: given}, nil
		}
	}
	return Result{}, fmt.Errorf("%s: no rule matches %s", t.ID, describe(t.Inputs, values))
}

func matchesAll(rule []test, values []any) bool {
	for j, tst := range rule {
		if !tst.matches(values[j]) {
			return false
		}
	}
	return true
}

// ParseInputs reads command-line key=value pairs into inputs of t.
func ParseInputs(t *Table, args []string) (map[string]any, error) {
	in := make(map[string]any, len(args))
	for _, arg := range args {
		key, value, ok := strings.Cut(arg, "=")
		if !ok {
			return nil, fmt.Errorf("%q: want key=value (inputs of %s: %s)", arg, t.ID, t.inputNames())
		}
		j := t.column(key)
		if j < 0 {
			return nil, fmt.Errorf("%s: %s has no input %q (inputs: %s)", key, t.ID, key, t.inputNames())
		}
		if _, twice := in[key]; twice {
			return nil, fmt.Errorf("%s: given twice", key)
		}
		v, err := t.coerce(j, value)
		if err != nil {
			return nil, err
		}
		if t.Inputs[j].Type == TypeBool {
			v = v == "true"
		}
		in[key] = v
	}
	for _, col := range t.Inputs {
		if _, given := in[col.Name]; !given {
			in[col.Name] = nil // not given is DMN's null, which only "-" matches
		}
	}
	return in, nil
}

// column returns the index of the named input, or -1.
func (t *Table) column(name string) int {
	return slices.IndexFunc(t.Inputs, func(c Column) bool { return c.Name == name })
}

func (t *Table) inputNames() string {
	names := make([]string, len(t.Inputs))
	for i, c := range t.Inputs {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}

func describe(cols []Column, values []any) string {
	parts := make([]string, len(cols))
	for i, c := range cols {
		if values[i] == nil {
			parts[i] = c.Name + "=null" // not given: DMN's null, not Go's <nil>
			continue
		}
		parts[i] = fmt.Sprintf("%s=%v", c.Name, values[i])
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}

func quoteAll(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}
