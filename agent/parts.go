package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/decisions"
	"github.com/sgrgraph/sgrgraph/graph"
	"github.com/sgrgraph/sgrgraph/guards"
	"github.com/sgrgraph/sgrgraph/models/offline"
	"github.com/sgrgraph/sgrgraph/nodes"
	"github.com/sgrgraph/sgrgraph/tables"
	"github.com/sgrgraph/sgrgraph/templates"
	"github.com/sgrgraph/sgrgraph/tools"
)

func (a *Agent) parts(ctx context.Context, o Options, b builds) (Nodes, Tables, error) {
	cfg := a.cfg
	set, err := decisions.Standard(cfg.Tables)
	if err != nil {
		return Nodes{}, Tables{}, err
	}
	a.tables = set
	get := func(id string) *tables.Table {
		t, e := set.Get(id)
		err = errors.Join(err, e)
		return t
	}
	dt001, dt002, dt003, dt004 := get("DT-001"), get("DT-002"), get("DT-003"), get("DT-004")
	dt005, dt006 := get("DT-005"), get("DT-006")
	if err != nil {
		return Nodes{}, Tables{}, err
	}
	a.outputs = dt004
	texts, err := templates.Open(cfg.Texts)
	if err != nil {
		return Nodes{}, Tables{}, err
	}
	classifier := o.Classifier
	if classifier == nil {
		if classifier, err = b.classifier(); err != nil {
			return Nodes{}, Tables{}, err
		}
	}
	classifier = a.tracing.classifier(classifier)
	planner, answerer := o.Model, o.Model
	if o.Model == nil {
		if planner, answerer, err = a.newModels(ctx, b.engine); err != nil {
			return Nodes{}, Tables{}, err
		}
	}
	searchLang := a.searchLanguage(planner)
	if o.Trace != nil {
		planner, answerer = Traced(planner, o.Trace), Traced(answerer, o.Trace)
	}
	searcher := o.Searcher
	if searcher == nil {
		searcher = a.knowledge.Index
	}
	search, err := tools.NewSearchKB(a.tracing.searcher(compressed(searcher, cfg.Agent.EvidenceTokens)), cfg.KB.TopK)
	if err != nil {
		return Nodes{}, Tables{}, err
	}
	toolStep := nodes.AgentTools{Tools: []tool.InvokableTool{search}, Sources: map[string]contracts.EvidenceSource{}}
	offered := []tool.BaseTool{search}
	have := []contracts.EvidenceSource{contracts.SourceDoc}
	fromMCP, err := a.waitMCP(b)
	if err != nil {
		return Nodes{}, Tables{}, err
	}
	for i, t := range append(slices.Clone(o.Tools), fromMCP...) {
		which := fmt.Sprintf("options: tools[%d]", i)
		if i >= len(o.Tools) {
			which = "config: tools.mcp"
		}
		info, err := t.Info(ctx)
		if err != nil || info == nil || info.Name == "" {
			return Nodes{}, Tables{}, fmt.Errorf("%s: no name (%w)", which, err)
		}
		if info.Name == tools.SGRToolName || info.Name == tools.SearchKBToolName || toolStep.Sources[info.Name] != "" {
			return Nodes{}, Tables{}, fmt.Errorf("%s: the name %q is taken", which, info.Name)
		}
		source := t.Source
		if source == "" {
			source = contracts.SourceDoc
		}
		toolStep.Tools, toolStep.Sources[info.Name] = append(toolStep.Tools, t.InvokableTool), source
		offered, have = append(offered, offer(t)), append(have, source)
	}
	toolStep.Tools = a.tracing.reported(toolStep.Tools)
	rules := cfg.Guardian.EvidenceRules()
	rules.RelevanceThreshold = cfg.KB.RelevanceThreshold
	reachable(&rules, have...)
	contract := cfg.Guardian.Contract()
	policy, err := cfg.Guardian.CompiledPolicy()
	if err != nil {
		return Nodes{}, Tables{}, err
	}
	product, lang, timeout := cfg.Product, cfg.Language, cfg.Model.Timeout
	am := nodes.AgentModel{Model: answerer, Tools: offered, Binding: dt003, MaxIterations: cfg.Agent.MaxIterations,
		ForceFirstSearch: cfg.Agent.ForceFirstSearch, Product: product, Timeout: timeout}
	n := Nodes{
		GuardianVerify: guardian(cfg, classifier, policy, dt001, texts),
		SGRPlan: nodes.SGRPlan{Model: planner, Binding: dt003, Tracks: dt006, Texts: texts, Product: product,
			Language: lang, SearchLanguage: searchLang, Contract: contract, Timeout: timeout,
			Switch: nodes.PlanningSwitch{Off: !cfg.SGR.Enabled, HeldBackPercent: 100 - cfg.SGR.RolloutPercent}}.Node(),
		PolicyCheck: nodes.PolicyCheck{Policy: policy, Enforcement: dt001, Mode: cfg.Guard.Mode}.Node(),
		InjectSynthetic: nodes.InjectSynthetic{Routing: dt002, Outputs: dt004, Texts: texts, Mode: nodes.InjectionMode(cfg.Agent.Injection),
			Product: product, Language: lang}.Node(),
		AgentModel:    am.Node(),
		CallTool:      toolStep.Call(),
		AgentTools:    toolStep.Node(),
		EvidenceCheck: nodes.EvidenceCheck{Rules: rules}.Node(),
		ContractCheck: nodes.ContractCheck{Verdicts: dt005}.Node(),
		RetryBump:     nodes.RetryBump(),
		Finalize:      nodes.Finalize{Texts: texts, Product: product, Language: lang}.Node(),
		SafeExit:      nodes.SafeExit{Texts: texts, Product: product, Language: lang}.Node(),
	}
	if cfg.Memory.Enabled {
		// The user's preferences are read and kept once the guard has let
		// the message in, before the plan settles the answer language.
		n.SGRPlan = remembering(n.SGRPlan)
		am.About = userAbout
		n.AgentModel = am.Node()
	}
	if len(cfg.Guardian.HumanReview) > 0 {
		n.HumanReview = nodes.HumanReview{On: cfg.Guardian.HumanReview, Verdicts: dt005, Ask: askPerson}.Node()
	}
	return n, Tables{Enforcement: dt001, Routing: dt002, Verdicts: dt005}, nil
}

// askPerson pauses the turn until a person answers the review request
// (Agent.Resume).
func askPerson(ctx context.Context, r contracts.ReviewRequest) (contracts.ReviewAnswer, error) {
	return graph.Interrupt[contracts.ReviewAnswer](ctx, r)
}

// reachable rewrites "any of" source rules that name only sources the
// agent has no tool for, so they ask for the sources it has: a rule no
// tool can satisfy would fail every such turn (troubleshooting wants db or
// graph evidence; a documentation-only agent has docs). "All of" rules are
// kept: a live status cannot come from documentation, and saying so is right.
func reachable(r *guards.EvidenceRules, have ...contracts.EvidenceSource) {
	for rt, rule := range r.Sources {
		if len(rule.AnyOf) == 0 || slices.ContainsFunc(rule.AnyOf, func(s contracts.EvidenceSource) bool { return slices.Contains(have, s) }) {
			continue
		}
		rule.AnyOf = have
		r.Sources[rt] = rule
	}
}

// searchLanguage is the language a planning model writes subqueries in:
// kb.language, or with auto the language of the knowledge base's articles
// when nearly all share one; "" (the user's) otherwise. The offline
// engine has found it already, reading the same articles.
func (a *Agent) searchLanguage(planner model.BaseChatModel) string {
	if e, ok := planner.(*offline.Engine); ok {
		return e.KBLanguage()
	}
	cfg := a.cfg
	if a.knowledge == nil {
		if cfg.KB.Language == "auto" {
			return ""
		}
		return cfg.KB.Language
	}
	return offline.SearchLanguage(cfg.KB.Language, a.knowledge.Corpus())
}
