package agent

import (
	"context"

	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/graph"
	"github.com/sgrgraph/sgrgraph/nodes"
)

// turnNodes makes every node of the default turn from the shared
// dependencies and the configuration; it builds nothing else.
func turnNodes(cfg config.Config, s shared) Nodes {
	t := s.tables
	rules := cfg.Guardian.EvidenceRules()
	rules.RelevanceThreshold = cfg.KB.RelevanceThreshold
	reachable(&rules, s.have...)
	product, lang, timeout := cfg.Product, cfg.Language, cfg.Model.Timeout
	am := nodes.AgentModel{Model: s.answerer, Tools: s.offered, Binding: t.binding, MaxIterations: cfg.Agent.MaxIterations,
		ForceFirstSearch: cfg.Agent.ForceFirstSearch, Product: product, Timeout: timeout}
	n := Nodes{
		GuardianVerify: guardian(cfg, s.door),
		SGRPlan: nodes.SGRPlan{Model: s.planner, Binding: t.binding, Tracks: t.tracks, Texts: s.texts, Product: product,
			Language: lang, SearchLanguage: s.searchLang, Contract: cfg.Guardian.Contract(), Timeout: timeout,
			Switch: nodes.PlanningSwitch{Off: !cfg.SGR.Enabled, HeldBackPercent: 100 - cfg.SGR.RolloutPercent}}.Node(),
		PolicyCheck: nodes.PolicyCheck{Policy: s.policy, Enforcement: t.enforcement, Mode: cfg.Guard.Mode}.Node(),
		InjectSynthetic: nodes.InjectSynthetic{Routing: t.routing, Outputs: t.outputs, Texts: s.texts, Mode: nodes.InjectionMode(cfg.Agent.Injection),
			Product: product, Language: lang}.Node(),
		AgentModel:    am.Node(),
		CallTool:      s.toolStep.Call(),
		AgentTools:    s.toolStep.Node(),
		EvidenceCheck: nodes.EvidenceCheck{Rules: rules}.Node(),
		ContractCheck: nodes.ContractCheck{Verdicts: t.verdicts, Published: s.published}.Node(),
		RetryBump:     nodes.RetryBump(),
		// With guardian.human_review empty no draft is held: the node
		// passes the turn on as DT-005 decided, and the graph keeps one shape.
		HumanReview: nodes.HumanReview{On: cfg.Guardian.HumanReview, Verdicts: t.verdicts, Ask: askPerson}.Node(),
		Finalize:    nodes.Finalize{Texts: s.texts, Product: product, Language: lang}.Node(),
		SafeExit:    nodes.SafeExit{Texts: s.texts, Product: product, Language: lang}.Node(),
	}
	if cfg.Memory.Enabled {
		// The user's preferences are read and kept once the guard has let
		// the message in, before the plan settles the answer language.
		n.SGRPlan = remembering(n.SGRPlan)
		am.About = userAbout
		n.AgentModel = am.Node()
	}
	return n
}

// guardian is guardian_verify at the door d.
func guardian(cfg config.Config, d door) nodes.Func {
	return nodes.GuardianVerify{Classifier: d.classifier, Policy: d.policy, Enforcement: d.tables.enforcement, Mode: cfg.Guard.Mode,
		Disabled: !cfg.Guard.Enabled, Texts: d.texts, Product: cfg.Product, Language: cfg.Language}.Node()
}

// askPerson pauses the turn until a person answers the review request
// (Agent.Resume).
func askPerson(ctx context.Context, r contracts.ReviewRequest) (contracts.ReviewAnswer, error) {
	return graph.Interrupt[contracts.ReviewAnswer](ctx, r)
}
