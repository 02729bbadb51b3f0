// Package agent assembles sgrgraph's default turn from configuration: the
// knowledge base, the model, the guard, the tables, the templates and the
// nodes, compiled into one graph (this file and parts.go), the turn's input
// (turn.go) and the run of a turn (run.go). Every caller (the CLI's ask and
// chat, batch, the server) goes through Run or Stream, so a turn is
// computed in one place only.
package agent

import (
	"context"
	"errors"
	"io"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"
	"go.opentelemetry.io/otel/trace"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/graph"
	"github.com/sgrgraph/sgrgraph/guards"
	"github.com/sgrgraph/sgrgraph/guards/safety"
	"github.com/sgrgraph/sgrgraph/kb"
	"github.com/sgrgraph/sgrgraph/mcptools"
	"github.com/sgrgraph/sgrgraph/memory"
	"github.com/sgrgraph/sgrgraph/models/offline"
	"github.com/sgrgraph/sgrgraph/tables"
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
	// Tools are offered to the agent beside search_kb.
	Tools []Tool
	// Replace holds nodes of your own: each one set replaces the configured
	// node of that name, the rest of the graph stays.
	Replace Nodes
	// Trace, when set, receives one JSON line per model call.
	Trace io.Writer
	// Store keeps conversations as threads (Turn.Thread); the caller
	// opens and closes it (OpenStore).
	Store checkpoint.Store
	// Memory keeps users' preferences across threads when memory.enabled
	// (memory.go); the caller opens and closes it. nil opens memory.store.
	Memory memory.Store
	// TracerProvider, when set, gives each turn a span, each node, model
	// call, tool call, search and guard classification one inside it
	// (docs/observability.md); nil makes none and costs nothing.
	TracerProvider trace.TracerProvider
}

// Tool is a tool the agent may call; what it returns is evidence of its
// Source (documentation when empty), which the Guardian's source rules
// weigh.
type Tool struct {
	tool.InvokableTool
	Source contracts.EvidenceSource
	// QueryArgument names the argument that takes a search query: the
	// offline engine calls the tool with its search queries, as it calls
	// search_kb. Empty: the tool's own QueryArgument() when it has one (an
	// MCP tool's), else the engine does not call it.
	QueryArgument string
}

// Agent is the compiled default graph with what it was built from. It is
// safe for concurrent use.
type Agent struct {
	cfg       config.Config
	store     checkpoint.Store
	knowledge *Knowledge
	ownsKB    bool
	nodes     Nodes
	graph     Graph
	tables    *tables.Set
	outputs   *tables.Table // DT-004, which the result reads
	// published are the values of the knowledge base that read as
	// personal data (a support line): answers may quote them, and
	// output.unmasked_evidence shows them as written (Masking).
	published guards.Published
	tracing   *tracing          // nil: no spans
	mcp       *mcptools.Toolset // tools.mcp's servers; nil: none
	// memory keeps users' preferences (memory.enabled); nil: none.
	memory     memory.Store
	ownsMemory bool
}

// New builds and compiles the default graph: assembly only, no turn runs.
func New(ctx context.Context, cfg config.Config, o Options) (*Agent, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg.Product = ProductOf(cfg)
	a := &Agent{cfg: cfg, knowledge: o.Knowledge, store: o.Store, tracing: newTracing(o.TracerProvider, cfg.Telemetry.RecordContent)}
	if a.store == nil && len(cfg.Guardian.HumanReview) > 0 {
		a.store = checkpoint.NewMemory() // a turn held for review waits here, in this process
	}
	// The guard, the offline engine and the knowledge base's index need
	// nothing of one another, and compiling the lexicon and reading the
	// articles into words are most of what a start takes: the guard is
	// built from the start and the engine once the articles are read, each
	// in a goroutine of its own, while the index opens.
	// tools.mcp's servers are started and reached while the rest is built.
	b := builds{mcp: startMCP(ctx, cfg.Tools.MCP)}
	if o.Classifier == nil {
		b.classifier = started(func() (safety.Classifier, error) { return newClassifier(cfg) })
	}
	if a.knowledge == nil && (o.Searcher == nil || (o.Model == nil && cfg.Model.Provider == "offline")) {
		k, err := openKnowledge(ctx, cfg.KB, func(docs []kb.Doc, read func() *offline.Reading) {
			b.engine, b.published = a.startEngine(o, docs, read), startPublished(docs)
		})
		if err != nil {
			_, _ = a.waitMCP(b)
			a.Close()
			return nil, err
		}
		a.knowledge, a.ownsKB = k, true
	} else if a.knowledge != nil {
		b.engine, b.published = a.startEngine(o, a.knowledge.Docs, nil), startPublished(a.knowledge.Docs)
	}
	n, e, err := a.parts(ctx, o, b)
	if err == nil {
		err = a.openMemory(ctx, o)
	}
	if err != nil {
		_, _ = a.waitMCP(b) // parts may have failed before it took them: they are closed all the same
		a.Close()
		return nil, err
	}
	n.replace(o.Replace)
	compile := append([]graph.CompileOption{graph.WithMaxSteps(cfg.Agent.MaxSteps)}, a.tracing.compileOptions()...)
	compile = append(compile, graph.WithMiddleware(instrument))
	if a.store != nil {
		// A session's next turn reads only the history and the turn number
		// of its state, which JSON keeps as the turn left them: it may start
		// from the state kept in memory (turnStates).
		compile = append(compile, graph.WithCheckpointer(a.store, graph.CacheStates(turnStates)))
	}
	r, err := NewGraph(ctx, n, e, compile...)
	if err != nil {
		a.Close()
		return nil, err
	}
	a.graph, a.nodes = r, n
	return a, nil
}

// builds are the parts of an agent being built in goroutines of their own
// (started); nil when not built.
type builds struct {
	classifier func() (safety.Classifier, error)
	engine     func() (*offline.Engine, error)
	published  func() (guards.Published, error)
	mcp        func() (mcpTools, error)
}

// started runs build in a goroutine of its own and returns what waits for
// its result.
func started[T any](build func() (T, error)) func() (T, error) {
	var v T
	var err error
	done := make(chan struct{})
	go func() {
		defer close(done)
		v, err = build()
	}()
	return func() (T, error) {
		<-done
		return v, err
	}
}

// Nodes are the configured nodes the graph was built from.
func (a *Agent) Nodes() Nodes { return a.nodes }

// Close releases the knowledge base if the agent opened it, and ends the
// connections to tools.mcp's servers.
func (a *Agent) Close() error {
	var err error
	if a.ownsKB && a.knowledge != nil {
		err = a.knowledge.Close()
	}
	return errors.Join(err, a.mcp.Close(), a.closeMemory())
}

// Graph is the compiled graph, for diagrams.
func (a *Agent) Graph() Graph { return a.graph }

// Tables are the decision tables the agent's nodes decide with.
func (a *Agent) Tables() *tables.Set { return a.tables }

// Store is the checkpoint store the agent keeps threads in; nil when it
// keeps none.
func (a *Agent) Store() checkpoint.Store { return a.store }

// Knowledge is the knowledge base the agent answers from.
func (a *Agent) Knowledge() *Knowledge { return a.knowledge }
