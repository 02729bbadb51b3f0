package tables

import (
	"fmt"
	"strings"
)

// Set is the tables a graph routes by, in the order given: each one a
// table the graph's nodes and edges were written for, which a table edited
// outside the program may replace (Load).
type Set struct {
	tables []*Table
}

// NewSet compiles defs into a set, in order. An ID given twice is an error.
func NewSet(defs ...Table) (*Set, error) {
	s := &Set{}
	seen := map[string]bool{}
	for _, d := range defs {
		if seen[d.ID] {
			return nil, fmt.Errorf("table %s: given twice", d.ID)
		}
		seen[d.ID] = true
		t, err := New(d)
		if err != nil {
			return nil, err
		}
		s.tables = append(s.tables, t)
	}
	return s, nil
}

// All returns the tables in the set's order.
func (s *Set) All() []*Table { return s.tables }

// Get finds a table by ID or name, ignoring case.
func (s *Set) Get(idOrName string) (*Table, error) {
	var known []string
	for _, t := range s.tables {
		if strings.EqualFold(t.ID, idOrName) || strings.EqualFold(t.Name, idOrName) {
			return t, nil
		}
		known = append(known, t.ID+" ("+t.Name+")")
	}
	return nil, fmt.Errorf("table %q: no such table (tables: %s)", idOrName, strings.Join(known, ", "))
}
