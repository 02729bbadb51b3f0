package agent

import (
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/nodes"
)

// NewGuardian is the configured guardian_verify node on its own: the
// configured guard provider, the query policy and DT-001, built by the
// turn's own newDoor, exactly as a turn runs it. `sgrgraph guard` runs it
// to show what the door decides.
func NewGuardian(cfg config.Config) (nodes.Func, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	classifier, err := newClassifier(cfg)
	if err != nil {
		return nil, err
	}
	d, err := newDoor(cfg, classifier)
	if err != nil {
		return nil, err
	}
	return guardian(cfg, d), nil
}
