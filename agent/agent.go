// Package agent assembles sgrgraph's default turn from configuration: the
// knowledge base, the model, the guard, the tables, the templates and the
// nodes, compiled into one graph; Run executes one turn of it. Every
// caller (the CLI's ask and chat, later batch and the server) goes through
// Run, so a turn is computed in one place only.
package agent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"

	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/events"
	"github.com/sgrgraph/sgrgraph/graph"
	"github.com/sgrgraph/sgrgraph/guards"
	"github.com/sgrgraph/sgrgraph/guards/safety"
	"github.com/sgrgraph/sgrgraph/nodes"
	"github.com/sgrgraph/sgrgraph/tables"
	"github.com/sgrgraph/sgrgraph/templates"
	"github.com/sgrgraph/sgrgraph/tools"
)

// Options supply what configuration cannot: parts built in Go.
type Options struct {
	// Knowledge is an opened knowledge base; nil opens the configured one
	// (unless Searcher and Model are both given, which need none).
	Knowledge *Knowledge
	// Searcher replaces the knowledge base's index behind search_kb.
	Searcher tools.Searcher
	// Model replaces the configured chat model.
	Model model.BaseChatModel
	// Classifier replaces the configured safety classifier.
	Classifier safety.Classifier
	// Trace, when set, receives one JSON line per model call.
	Trace io.Writer
}

// Agent is the compiled default graph with what it was built from. It is
// safe for concurrent use.
type Agent struct {
	cfg       config.Config
	knowledge *Knowledge
	ownsKB    bool
	nodes     Nodes
	graph     Graph
	tables    *tables.Set
}

// New builds and compiles the default graph.
func New(ctx context.Context, cfg config.Config, o Options) (*Agent, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	a := &Agent{cfg: cfg, knowledge: o.Knowledge}
	if a.knowledge == nil && (o.Searcher == nil || (o.Model == nil && cfg.Model.Provider == "offline")) {
		k, err := OpenKnowledge(ctx, cfg.KB)
		if err != nil {
			return nil, err
		}
		a.knowledge, a.ownsKB = k, true
	}
	n, e, err := a.parts(ctx, o)
	if err != nil {
		a.Close()
		return nil, err
	}
	r, err := NewGraph(ctx, n, e, graph.WithMaxSteps(cfg.Agent.MaxSteps), graph.WithMiddleware(instrument))
	if err != nil {
		a.Close()
		return nil, err
	}
	a.graph, a.nodes = r, n
	return a, nil
}

// Nodes are the configured nodes the graph was built from.
func (a *Agent) Nodes() Nodes { return a.nodes }

// Close releases the knowledge base if the agent opened it.
func (a *Agent) Close() error {
	if a.ownsKB && a.knowledge != nil {
		return a.knowledge.Close()
	}
	return nil
}

// Graph is the compiled graph, for diagrams.
func (a *Agent) Graph() Graph { return a.graph }

// Tables are the decision tables the agent's nodes decide with.
func (a *Agent) Tables() *tables.Set { return a.tables }

// Knowledge is the knowledge base the agent answers from.
func (a *Agent) Knowledge() *Knowledge { return a.knowledge }

func (a *Agent) parts(ctx context.Context, o Options) (Nodes, Tables, error) {
	cfg := a.cfg
	set, err := tables.Standard(tables.Config{SpamThreshold: cfg.Tables.SpamThreshold,
		ConfidenceThreshold: cfg.Tables.ConfidenceThreshold, MaxRetries: cfg.Tables.MaxRetries})
	if err != nil {
		return Nodes{}, Tables{}, err
	}
	a.tables = set
	get := func(id string) *tables.Table {
		t, e := set.Get(id)
		err = errors.Join(err, e)
		return t
	}
	dt001, dt002, dt003, dt005, dt006 := get("DT-001"), get("DT-002"), get("DT-003"), get("DT-005"), get("DT-006")
	if err != nil {
		return Nodes{}, Tables{}, err
	}
	texts, err := loadTexts(cfg.Texts)
	if err != nil {
		return Nodes{}, Tables{}, err
	}
	classifier := o.Classifier
	if classifier == nil {
		if classifier, err = NewClassifier(cfg.Guard); err != nil {
			return Nodes{}, Tables{}, err
		}
	}
	planner, answerer := o.Model, o.Model
	if o.Model == nil {
		if planner, answerer, err = a.newModels(ctx); err != nil {
			return Nodes{}, Tables{}, err
		}
	}
	if o.Trace != nil {
		planner, answerer = Traced(planner, o.Trace), Traced(answerer, o.Trace)
	}
	searcher := o.Searcher
	if searcher == nil {
		searcher = a.knowledge.Index
	}
	search, err := tools.NewSearchKB(searcher, cfg.KB.TopK)
	if err != nil {
		return Nodes{}, Tables{}, err
	}
	rules := guards.DefaultEvidenceRules()
	g := cfg.Guardian
	rules.QualityMinItems, rules.QualityMinSources, rules.MinAvgConfidence, rules.FastMinItems =
		g.QualityMinItems, g.QualityMinSources, g.MinAvgConfidence, g.FastMinItems
	reachable(&rules, contracts.SourceDoc)
	contract := contracts.ArchitectSpec{ResponseFormat: "markdown", RequiredSections: g.RequiredSections,
		ForbiddenContent: g.ForbiddenContent, DomainTerms: g.DomainTerms}
	policy, err := CompilePolicy(g.Policy)
	if err != nil {
		return Nodes{}, Tables{}, err
	}
	product, lang, timeout := cfg.Product, cfg.Language, cfg.Model.Timeout
	toolStep := nodes.AgentTools{Tools: []tool.InvokableTool{search}}
	n := Nodes{
		GuardianVerify: guardian(cfg, classifier, policy, dt001, texts),
		SGRPlan: nodes.SGRPlan{Model: planner, Binding: dt003, Tracks: dt006, Texts: texts, Product: product,
			Language: lang, Contract: contract, Timeout: timeout}.Node(),
		InjectSynthetic: nodes.InjectSynthetic{Routing: dt002, Texts: texts, Mode: nodes.InjectionMode(cfg.Agent.Injection),
			Product: product, Language: lang}.Node(),
		AgentModel: nodes.AgentModel{Model: answerer, Tools: []tool.BaseTool{search}, Binding: dt003, MaxIterations: cfg.Agent.MaxIterations,
			ForceFirstSearch: cfg.Agent.ForceFirstSearch, Product: product, Timeout: timeout}.Node(),
		CallTool:      toolStep.Call(),
		AgentTools:    toolStep.Node(),
		EvidenceCheck: nodes.EvidenceCheck{Rules: rules}.Node(),
		ContractCheck: nodes.ContractCheck{Verdicts: dt005, Policy: policy}.Node(),
		RetryBump:     nodes.RetryBump(),
		Finalize:      nodes.Finalize{Texts: texts, Product: product, Language: lang}.Node(),
		SafeExit:      nodes.SafeExit{Texts: texts, Product: product, Language: lang}.Node(),
	}
	return n, Tables{Enforcement: dt001, Routing: dt002, Verdicts: dt005}, nil
}

// CompilePolicy turns the configured query policy into a checker; an empty
// one is nil, so a turn without a policy pays nothing for it.
func CompilePolicy(p config.Policy) (*guards.QueryPolicy, error) {
	if len(p.ForbiddenTopics) == 0 && len(p.ForbiddenExpressions) == 0 && len(p.DeniedRequestTypes) == 0 {
		return nil, nil
	}
	gp := guards.Policy{ForbiddenTopics: p.ForbiddenTopics, ForbiddenExpressions: p.ForbiddenExpressions,
		DeniedRequestTypes: map[string][]contracts.RequestType{}}
	for role, types := range p.DeniedRequestTypes {
		for _, t := range types {
			gp.DeniedRequestTypes[role] = append(gp.DeniedRequestTypes[role], contracts.RequestType(t))
		}
	}
	q, err := guards.CompilePolicy(gp)
	if err != nil {
		return nil, fmt.Errorf("config: guardian.policy.%w", err)
	}
	return q, nil
}

func loadTexts(t config.Texts) (*templates.Set, error) {
	if t.Templates == "" && t.Catalogue == "" {
		return templates.Default()
	}
	return templates.Load(t.Templates, t.Catalogue)
}

// Turn is one user message and what came before it.
type Turn struct {
	SessionID string
	// Number counts the session's turns from 1.
	Number  int
	Message string
	// History is the model context of the earlier turns (the Messages of
	// the last turn's state).
	History []*schema.Message
	Role    string
	// Language fixes the answer language; empty lets the turn settle it.
	Language string
	// Events, when set, receives the turn's events as they happen.
	Events events.Sink
}

// MaxMessageRunes bounds a user message.
const MaxMessageRunes = 16000

// NewState checks a turn's input and builds the state it starts from: the
// history with the user message appended, every list empty but present.
func NewState(t Turn) (*contracts.ChatState, error) {
	msg := strings.TrimSpace(t.Message)
	if msg == "" {
		return nil, errors.New("message: must not be empty")
	}
	if n := len([]rune(msg)); n > MaxMessageRunes {
		return nil, fmt.Errorf("message: %d characters, over the limit of %d", n, MaxMessageRunes)
	}
	if t.Language != "" && t.Language != "ru" && t.Language != "en" {
		return nil, fmt.Errorf("language: %q is not ru or en", t.Language)
	}
	if t.Number < 1 {
		t.Number = 1
	}
	s := &contracts.ChatState{SessionID: t.SessionID, Turn: t.Number, UserMessage: msg, UserRole: t.Role, Language: t.Language,
		UI: []contracts.UIMessage{}, Evidence: []contracts.EvidenceItem{}, QueryTraces: []contracts.QueryTrace{}, Articles: []contracts.Article{}}
	// The model sees the user's words with the review marker defused; the
	// metadata keeps them as sent.
	toModel, escaped := nodes.EscapeReviewMarker(msg)
	if escaped {
		s.Diagnostics.Notes = append(s.Diagnostics.Notes, contracts.NodeNote{Node: "input",
			Message: "the user message holds the brackets of the Guardian's review marker (⟦ ⟧); the model sees them as [ ]"})
	}
	s.Messages = append(append([]*schema.Message(nil), t.History...), schema.UserMessage(toModel))
	return s, nil
}

// RunState runs one turn and returns its whole state, as the nodes left
// it: unmasked, for tests and for code that works on the state. What is
// shown to people comes from Run, Stream and the events.
//
// t.Events receives what a reader may see: personal data masked, and no
// draft answer before the Guardian has passed it (events.HoldDrafts).
func (a *Agent) RunState(ctx context.Context, t Turn) (*contracts.ChatState, error) {
	s, err := NewState(t)
	if err != nil {
		return nil, err
	}
	var opts []graph.RunOption
	if t.Events != nil {
		shown := t.Events
		masked := func(ev contracts.Event) { shown(ev.MapText(guards.MaskSensitiveData)) }
		ctx = events.WithSink(ctx, events.HoldDrafts(masked, nodes.AgentModelName))
		opts = append(opts, graph.WithCallbacks(events.TokenCallbacks()))
	}
	return a.graph.Turn.Invoke(ctx, s, opts...)
}

// Run runs one turn and returns its structured result with personal data
// masked (Masked).
func (a *Agent) Run(ctx context.Context, t Turn) (contracts.StructuredResult, error) {
	s, err := a.RunState(ctx, t)
	if err != nil {
		return contracts.StructuredResult{}, err
	}
	return Masked(Result(s), a.cfg.Output), nil
}

// Masked is r as it may be printed, stored or sent: every value the
// sensitive-data detector finds is masked in every free-text field (the
// answer, UI messages, plan, evidence, query traces, articles,
// diagnostics). With o.UnmaskedEvidence the evidence, query traces and
// articles are kept as the knowledge base returned them. Context, the
// history the next turn's model sees, is not printed and stays whole.
func Masked(r contracts.StructuredResult, o config.Output) contracts.StructuredResult {
	m := r.MapText(guards.MaskSensitiveData)
	if o.UnmaskedEvidence {
		m.Evidence, m.QueryTraces, m.Articles = r.Evidence, r.QueryTraces, r.Articles
	}
	return m
}

// Result is the structured result of a finished turn's state, unmasked;
// pass it through Masked before it leaves the program.
func Result(s *contracts.ChatState) contracts.StructuredResult {
	return contracts.StructuredResult{SessionID: s.SessionID, Turn: s.Turn, Action: s.Action, Answer: s.Answer, UI: s.UI,
		Moderation: s.Moderation, Plan: s.Plan, Verdict: s.Verdict, RetryCount: s.RetryCount, Evidence: s.Evidence,
		QueryTraces: s.QueryTraces, Articles: s.Articles, Diagnostics: s.Diagnostics, Decisions: s.Made, Error: s.Error, Context: s.Messages}
}

// Stream runs one turn in the background. Its events arrive on the channel
// as they happen (after t.Events, if set, has seen each); the channel closes
// when the turn ends, and wait then returns the result, masked as Run's.
// Read every event or cancel ctx: the turn waits for its reader.
//
// The events are safe to show as they come: personal data is masked, and
// token events carry only an answer the Guardian has passed; they arrive
// right after its PASS verdict, never before (RunState).
func (a *Agent) Stream(ctx context.Context, t Turn) (events <-chan contracts.Event, wait func() (contracts.StructuredResult, error)) {
	ch := make(chan contracts.Event, 64)
	done := make(chan struct{})
	var res contracts.StructuredResult
	var err error
	also := t.Events
	t.Events = func(ev contracts.Event) {
		if also != nil {
			also(ev)
		}
		select {
		case ch <- ev:
		case <-ctx.Done():
		}
	}
	go func() {
		defer close(done)
		defer close(ch)
		res, err = a.Run(ctx, t)
	}()
	return ch, func() (contracts.StructuredResult, error) {
		<-done
		return res, err
	}
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
