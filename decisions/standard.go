package decisions

import (
	"fmt"

	"github.com/sgrgraph/sgrgraph/tables"
)

// Standard builds DT-001 … DT-006 with the thresholds of cfg, and puts the
// tables of cfg.Dir in place of those of the same ID (tables.Set.Load).
func Standard(cfg Config) (*tables.Set, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	s, err := tables.NewSet(guardianEnforcement(), sgrRouting(cfg), sgrToolBinding(), outputRouting(), guardianVerdict(cfg), trackSelection())
	if err != nil {
		return nil, err
	}
	if cfg.Dir != "" {
		if err := s.Load(cfg.Dir); err != nil {
			return nil, fmt.Errorf("tables.dir: %w", err)
		}
	}
	return s, nil
}

// ExampleChangesIn loads the tables of dir over those of cfg (without its
// Dir) as a start-up does, and returns every example whose rule changed,
// each naming its file (tables.Set.LoadChanges).
func ExampleChangesIn(cfg Config, dir string) ([]tables.ExampleChange, error) {
	cfg.Dir = ""
	s, err := Standard(cfg)
	if err != nil {
		return nil, err
	}
	return s.LoadChanges(dir)
}
