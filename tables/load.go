package tables

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Load puts the tables of dir's .dmn and .json files in place of the
// set's tables of the same ID. Every table is checked before it is used:
// it compiles, it has the inputs and outputs the graph's edges expect, no
// row is unreachable, no input falls through every row, and every example
// it carries selects its rule. The first failure stops the load with the
// file, the rule and the cell named; for an example, with the commands
// that list and accept the changed outcomes.
func (s *Set) Load(dir string) error {
	changes, err := s.LoadChanges(dir)
	if err != nil {
		return err
	}
	if len(changes) > 0 {
		more := ""
		if len(changes) > 1 {
			more = fmt.Sprintf(" (and %d more)", len(changes)-1)
		}
		c := changes[0]
		return fmt.Errorf("%s: %s example %d (%s) selects rule %d, not rule %d%s; "+
			"`sgrgraph tables --check %s` lists every example whose outcome changed and "+
			"`sgrgraph tables --accept %s` records the new outcomes",
			c.File, c.Table, c.Example, inputList(c.Inputs), c.Now, c.Was, more, dir, dir)
	}
	return nil
}

// LoadChanges loads dir's tables as Load does, but collects the examples
// whose rule changed instead of failing on them, each naming its file. A
// table that fails any other check (it does not compile, conform, lint or
// cover every input) is an error, as in Load: only the examples' outcomes
// are the analyst's to accept.
func (s *Set) LoadChanges(dir string) ([]ExampleChange, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var changes []ExampleChange
	seen := map[string]string{} // table ID → file
	for _, e := range entries {
		ext := strings.ToLower(filepath.Ext(e.Name()))
		if e.IsDir() || (ext != ".dmn" && ext != ".json") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		defs, err := readTables(path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		for _, def := range defs {
			if other, twice := seen[def.ID]; twice {
				return nil, fmt.Errorf("%s: table %s is in %s too; keep one", path, def.ID, other)
			}
			seen[def.ID] = path
			changed, err := s.replace(def)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
			for _, c := range changed {
				c.File = path
				changes = append(changes, c)
			}
		}
	}
	return changes, nil
}

// readTables reads one file: a .dmn file holds one table; a .json file
// one table or a list of them (what `sgrgraph tables --json` prints).
func readTables(path string) ([]Table, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseTables(path, data)
}

// parseTables reads the tables of a file's content, by its extension.
func parseTables(path string, data []byte) ([]Table, error) {
	if strings.EqualFold(filepath.Ext(path), ".dmn") {
		t, err := ParseDMN(data)
		return []Table{t}, err
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if trimmed := bytes.TrimSpace(data); len(trimmed) > 0 && trimmed[0] == '[' {
		var ts []Table
		return ts, d.Decode(&ts)
	}
	var t Table
	return []Table{t}, d.Decode(&t)
}

// replace checks def and puts it in place of the set's table of its ID, returning the examples whose rule changed.
func (s *Set) replace(def Table) ([]ExampleChange, error) {
	i := slices.IndexFunc(s.tables, func(t *Table) bool { return t.ID == def.ID })
	if i < 0 {
		var ids []string
		for _, t := range s.tables {
			ids = append(ids, t.ID)
		}
		return nil, fmt.Errorf("table %q is not a table of the turn (%s)", def.ID, strings.Join(ids, ", "))
	}
	std := s.tables[i]
	t, err := New(def)
	if err != nil {
		return nil, err
	}
	if err := conforms(t, std); err != nil {
		return nil, err
	}
	if findings := append(Lint(t), Gaps(t)...); len(findings) > 0 {
		return nil, errors.New(strings.Join(findings, "; "))
	}
	changes, err := t.ExampleChanges()
	if err != nil {
		return nil, err
	}
	s.tables[i] = t
	return changes, nil
}

// conforms checks that t reads the inputs and gives the outputs of std,
// the table the graph's nodes and edges were written for.
func conforms(t, std *Table) error {
	if len(t.Inputs) != len(std.Inputs) || len(t.Outputs) != len(std.Outputs) {
		return fmt.Errorf("%s: %d inputs and %d outputs; the turn gives %s and reads %s",
			t.ID, len(t.Inputs), len(t.Outputs), columnList(std.Inputs), columnList(std.Outputs))
	}
	for j, c := range t.Inputs {
		want := std.Inputs[j]
		switch {
		case c.Name != want.Name || c.Type != want.Type:
			return fmt.Errorf("%s: input %d is %s (%s); the turn gives %s (%s) there", t.ID, j+1, c.Name, c.Type, want.Name, want.Type)
		case !sameSet(c.Values, want.Values):
			return fmt.Errorf("%s: input %s allows %s; the turn gives %s", t.ID, c.Name, quoteAll(c.Values), quoteAll(want.Values))
		case c.Range != want.Range:
			return fmt.Errorf("%s: input %s has the range %q; the turn gives values in %q", t.ID, c.Name, c.Range, want.Range)
		}
	}
	for k, c := range t.Outputs {
		want := std.Outputs[k]
		if c.Name != want.Name || c.Type != want.Type {
			return fmt.Errorf("%s: output %d is %s (%s); the turn reads %s (%s) there", t.ID, k+1, c.Name, c.Type, want.Name, want.Type)
		}
		if c.Type != TypeString {
			continue
		}
		known := std.outputValues(k)
		for i, r := range t.Rules {
			if !slices.Contains(known, r.Outputs[k]) {
				return fmt.Errorf("%s rule %d column %s: %q is not a value the turn knows (%s)", t.ID, i+1, c.Name, r.Outputs[k], quoteAll(known))
			}
		}
	}
	return nil
}

// CheckExamples evaluates every example the table carries and names the
// first that does not select its rule.
func (t *Table) CheckExamples() error {
	changes, err := t.ExampleChanges()
	if err != nil || len(changes) == 0 {
		return err
	}
	c := changes[0]
	return fmt.Errorf("%s example %d (%s) selects rule %d, not rule %d", t.ID, c.Example, inputList(c.Inputs), c.Now, c.Was)
}

func columnList(cols []Column) string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}

func sameSet(a, b []string) bool { return superset(a, b) && superset(b, a) }
