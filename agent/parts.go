package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"

	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/decisions"
	"github.com/sgrgraph/sgrgraph/guards"
	"github.com/sgrgraph/sgrgraph/guards/safety"
	"github.com/sgrgraph/sgrgraph/models/offline"
	"github.com/sgrgraph/sgrgraph/nodes"
	"github.com/sgrgraph/sgrgraph/tables"
	"github.com/sgrgraph/sgrgraph/templates"
	"github.com/sgrgraph/sgrgraph/tools"
)

// The shared dependencies of the default turn, each built once: the
// decision tables, the texts, the guard at the door, the models and the
// tools. The nodes are made from them in turnnodes.go; NewGuardian makes
// guardian_verify from the same door.

// turnTables are the default turn's decision tables, by what they decide.
type turnTables struct {
	set                                    *tables.Set
	enforcement, routing, binding, outputs *tables.Table // DT-001 … DT-004
	verdicts, tracks                       *tables.Table // DT-005, DT-006
}

// openTables builds DT-001 … DT-006 from the configuration's thresholds,
// with the edited tables of tables.dir in place of the standard ones.
func openTables(cfg decisions.Config) (turnTables, error) {
	set, err := decisions.Standard(cfg)
	if err != nil {
		return turnTables{}, err
	}
	get := func(id string) *tables.Table {
		t, e := set.Get(id)
		err = errors.Join(err, e)
		return t
	}
	t := turnTables{set: set, enforcement: get("DT-001"), routing: get("DT-002"), binding: get("DT-003"),
		outputs: get("DT-004"), verdicts: get("DT-005"), tracks: get("DT-006")}
	return t, err
}

// door is what guardian_verify decides with, and what every other node may
// use of it: the tables, the texts, the safety classifier and the query
// policy.
type door struct {
	tables     turnTables
	texts      *templates.Set
	classifier safety.Classifier
	policy     *guards.QueryPolicy
}

// newDoor builds the door around classifier from the configuration.
func newDoor(cfg config.Config, classifier safety.Classifier) (door, error) {
	t, err := openTables(cfg.Tables)
	if err != nil {
		return door{}, err
	}
	texts, err := templates.Open(cfg.Texts)
	if err != nil {
		return door{}, err
	}
	policy, err := cfg.Guardian.CompiledPolicy()
	if err != nil {
		return door{}, err
	}
	return door{tables: t, texts: texts, classifier: classifier, policy: policy}, nil
}

// shared is everything the nodes are made from.
type shared struct {
	door
	planner, answerer model.BaseChatModel
	// searchLang is the language the planner writes subqueries in.
	searchLang string
	// toolStep runs the agent's tools; offered are the tools the agent
	// model is offered, have the evidence sources they give.
	toolStep nodes.AgentTools
	offered  []tool.BaseTool
	have     []contracts.EvidenceSource
	// published are the knowledge base's values that read as personal data.
	published guards.Published
}

// shared builds the turn's dependencies once: the door (with the
// classifier the options give, else the one being built), the models
// (the options' or the configured ones) and the tools (search_kb, the
// options' and tools.mcp's).
func (a *Agent) shared(ctx context.Context, o Options, b builds) (shared, error) {
	classifier := o.Classifier
	if classifier == nil {
		var err error
		if classifier, err = b.classifier(); err != nil {
			return shared{}, err
		}
	}
	d, err := newDoor(a.cfg, a.tracing.classifier(classifier))
	if err != nil {
		return shared{}, err
	}
	s := shared{door: d, planner: o.Model, answerer: o.Model}
	if b.published != nil {
		s.published, _ = b.published() // it never fails
	}
	if o.Model == nil {
		if s.planner, s.answerer, err = a.newModels(ctx, b.engine); err != nil {
			return shared{}, err
		}
	}
	s.searchLang = a.searchLanguage(s.planner)
	if o.Trace != nil {
		s.planner, s.answerer = Traced(s.planner, o.Trace), Traced(s.answerer, o.Trace)
	}
	return s, a.addTools(ctx, &s, o, b)
}

// addTools gives s search_kb, the options' tools and tools.mcp's, each
// name once.
func (a *Agent) addTools(ctx context.Context, s *shared, o Options, b builds) error {
	searcher := o.Searcher
	if searcher == nil {
		searcher = a.knowledge.Index
	}
	search, err := tools.NewSearchKB(a.tracing.searcher(compressed(searcher, a.cfg.Agent.EvidenceTokens)), a.cfg.KB.TopK)
	if err != nil {
		return err
	}
	s.toolStep = nodes.AgentTools{Tools: []tool.InvokableTool{search}, Sources: map[string]contracts.EvidenceSource{}}
	s.offered, s.have = []tool.BaseTool{search}, []contracts.EvidenceSource{contracts.SourceDoc}
	fromMCP, err := a.waitMCP(b)
	if err != nil {
		return err
	}
	for i, t := range append(slices.Clone(o.Tools), fromMCP...) {
		which := fmt.Sprintf("options: tools[%d]", i)
		if i >= len(o.Tools) {
			which = "config: tools.mcp"
		}
		info, err := t.Info(ctx)
		if err != nil || info == nil || info.Name == "" {
			return fmt.Errorf("%s: no name (%w)", which, err)
		}
		if info.Name == tools.SGRToolName || info.Name == tools.SearchKBToolName || s.toolStep.Sources[info.Name] != "" {
			return fmt.Errorf("%s: the name %q is taken", which, info.Name)
		}
		source := t.Source
		if source == "" {
			source = contracts.SourceDoc
		}
		s.toolStep.Tools, s.toolStep.Sources[info.Name] = append(s.toolStep.Tools, t.InvokableTool), source
		s.offered, s.have = append(s.offered, offer(t)), append(s.have, source)
	}
	s.toolStep.Tools = a.tracing.reported(s.toolStep.Tools)
	return nil
}

// parts builds the shared dependencies and the nodes from them, and
// keeps the tables the agent answers for.
func (a *Agent) parts(ctx context.Context, o Options, b builds) (Nodes, Tables, error) {
	s, err := a.shared(ctx, o, b)
	if err != nil {
		return Nodes{}, Tables{}, err
	}
	a.tables, a.outputs, a.published = s.tables.set, s.tables.outputs, s.published
	t := s.tables
	return turnNodes(a.cfg, s), Tables{Enforcement: t.enforcement, Routing: t.routing, Verdicts: t.verdicts}, nil
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
