package agent

import (
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/decisions"
	"github.com/sgrgraph/sgrgraph/guards"
	"github.com/sgrgraph/sgrgraph/guards/safety"
	"github.com/sgrgraph/sgrgraph/nodes"
	"github.com/sgrgraph/sgrgraph/tables"
	"github.com/sgrgraph/sgrgraph/templates"
)

// NewGuardian is the configured guardian_verify node on its own: the
// configured guard provider, the query policy and DT-001, exactly as a
// turn runs it. `sgrgraph guard` runs it to show what the door decides.
func NewGuardian(cfg config.Config) (nodes.Func, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	classifier, err := newClassifier(cfg)
	if err != nil {
		return nil, err
	}
	policy, err := cfg.Guardian.CompiledPolicy()
	if err != nil {
		return nil, err
	}
	set, err := decisions.Standard(cfg.Tables)
	if err != nil {
		return nil, err
	}
	dt001, err := set.Get("DT-001")
	if err != nil {
		return nil, err
	}
	texts, err := templates.Open(cfg.Texts)
	if err != nil {
		return nil, err
	}
	return guardian(cfg, classifier, policy, dt001, texts), nil
}

func guardian(cfg config.Config, c safety.Classifier, p *guards.QueryPolicy, dt001 *tables.Table, texts *templates.Set) nodes.Func {
	return nodes.GuardianVerify{Classifier: c, Policy: p, Enforcement: dt001, Mode: cfg.Guard.Mode, Disabled: !cfg.Guard.Enabled,
		Texts: texts, Product: cfg.Product, Language: cfg.Language}.Node()
}
