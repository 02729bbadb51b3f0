package tables

import (
	"fmt"
	"strings"
)

// Set is the standard tables of a turn, built from one Config.
type Set struct {
	tables []*Table
}

// Standard builds DT-001 … DT-006 with the thresholds of cfg, and puts the
// tables of cfg.Dir in place of those of the same ID (see Load).
func Standard(cfg Config) (*Set, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	defs := []Table{
		guardianEnforcement(), sgrRouting(cfg), sgrToolBinding(), outputRouting(), guardianVerdict(cfg), trackSelection(),
	}
	s := &Set{}
	for _, d := range defs {
		t, err := New(d)
		if err != nil {
			return nil, err
		}
		s.tables = append(s.tables, t)
	}
	if cfg.Dir != "" {
		if err := s.load(cfg.Dir); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// All returns the tables in ID order.
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
