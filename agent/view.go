package agent

import (
	"context"
	"strings"
	"sync"

	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/events"
	"github.com/sgrgraph/sgrgraph/graph"
	"github.com/sgrgraph/sgrgraph/guards"
	"github.com/sgrgraph/sgrgraph/kb"
	"github.com/sgrgraph/sgrgraph/nodes"
)

// What the agent hands the surfaces that show a turn (the CLI, batch, the
// HTTP server, MCP, the web chat, the events): views that are safe to
// show as they are. Masking is decided here and nowhere else; a surface
// never masks, filters or reads the graph's internals itself.

// Masking says what of a turn's output is masked before it leaves the
// program: every value the sensitive-data detector finds, in every
// free-text field, except the knowledge base's own text (evidence, query
// traces, articles) when KeepEvidence is set, and then also the values of
// the knowledge base wherever they are quoted (a support line in an
// answer).
type Masking struct {
	// KeepEvidence keeps what the knowledge base returned as it returned
	// it (output.unmasked_evidence).
	KeepEvidence bool
	published    guards.Published
}

// MaskingOf is the masking the output settings ask for.
func MaskingOf(o config.Output) Masking { return Masking{KeepEvidence: o.UnmaskedEvidence} }

// Masking is the masking of a's configuration: what its results, events
// and searches are shown with.
func (a *Agent) Masking() Masking {
	m := MaskingOf(a.cfg.Output)
	if m.KeepEvidence {
		// The knowledge base's text may be shown as it is, and so may its
		// values an answer quotes.
		m.published = a.published
	}
	return m
}

// text is text with every value masked that is neither the knowledge
// base's published one nor kept by the settings.
func (m Masking) text(text string) string { return m.published.Mask(text) }

// MaskText is text with every value the sensitive-data detector finds
// masked: for text that is not the knowledge base's (a question, a title,
// an error), which no setting leaves unmasked.
func MaskText(text string) string { return guards.MaskSensitiveData(text) }

// Result is r as it may be printed, stored or sent: every free-text field
// masked (the answer, UI messages, plan, verdict, review, diagnostics,
// failure), and the evidence, query traces and articles too unless
// KeepEvidence. Context, the history the next turn's model sees, is not
// printed and stays whole.
func (m Masking) Result(r contracts.StructuredResult) contracts.StructuredResult {
	v := r.MapText(m.text)
	if m.KeepEvidence {
		v.Evidence, v.QueryTraces, v.Articles = r.Evidence, r.QueryTraces, r.Articles
	}
	return v
}

// Article is a knowledge-base article as it may be shown: masked unless
// KeepEvidence.
func (m Masking) Article(a contracts.Article) contracts.Article {
	if m.KeepEvidence {
		return a
	}
	return a.MapText(m.text)
}

// Evidence is an evidence item as it may be shown: masked unless
// KeepEvidence.
func (m Masking) Evidence(e contracts.EvidenceItem) contracts.EvidenceItem {
	if m.KeepEvidence {
		return e
	}
	return e.MapText(m.text)
}

// Masked is r as it may be printed, stored or sent under the output
// settings o: MaskingOf(o).Result(r).
func Masked(r contracts.StructuredResult, o config.Output) contracts.StructuredResult {
	return MaskingOf(o).Result(r)
}

// shown returns the sink through which a turn's events reach a reader:
// each event masked (events carry no evidence field, so all of their text
// is masked whatever the settings), and each run of answer tokens masked
// as one text as well as token by token, since a value split between two
// tokens passes a token-by-token check. A run whose whole text masking
// changes goes out as one token of the masked text; else as its tokens.
// A run ends at the next other event (events.HoldDrafts releases the
// answer's tokens just before its UI message); flush ends the last.
// Only answer tokens reach a reader (HoldDrafts drops every other
// node's), so a token event is always a piece of the accepted answer.
func shown(sink events.Sink, m Masking) (show events.Sink, flush func()) {
	v := &tokenRun{sink: sink, mask: m.text}
	return v.event, v.flush
}

// tokenRun holds a run of answer tokens until it can be masked whole.
type tokenRun struct {
	mu     sync.Mutex
	sink   events.Sink
	mask   func(string) string
	tokens []contracts.Event
}

func (v *tokenRun) event(ev contracts.Event) {
	v.mu.Lock()
	defer v.mu.Unlock()
	ev = ev.MapText(v.mask)
	if ev.Kind == contracts.EventToken {
		v.tokens = append(v.tokens, ev)
		return
	}
	v.release()
	v.sink(ev)
}

func (v *tokenRun) flush() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.release()
}

// release sends the run held, masked whole; the caller holds mu.
func (v *tokenRun) release() {
	if len(v.tokens) == 0 {
		return
	}
	var joined strings.Builder
	for _, t := range v.tokens {
		joined.WriteString(t.Text)
	}
	run := v.tokens
	if masked := v.mask(joined.String()); masked != joined.String() {
		one := run[0]
		one.Text = masked
		run = []contracts.Event{one}
	}
	v.tokens = nil
	for _, t := range run {
		v.sink(t)
	}
}

// Search looks query up in a's own knowledge base and returns its topK
// best articles as they may be shown (Masking.Article). It returns
// ErrNoKnowledge when a has none (it was given a Searcher and a Model and
// no Knowledge, which it then needs not open).
func (a *Agent) Search(ctx context.Context, query string, topK int) (kb.Result, error) {
	if a.knowledge == nil || a.knowledge.Index == nil {
		return kb.Result{}, ErrNoKnowledge
	}
	if err := ctx.Err(); err != nil {
		return kb.Result{}, err
	}
	res, err := a.knowledge.Index.Search(query, topK)
	if err != nil {
		return kb.Result{}, err
	}
	m := a.Masking()
	for i, art := range res.Articles {
		res.Articles[i] = m.Article(art)
	}
	return res, nil
}

// NodeNames lists every node name of the default turn, the react_agent
// loop's included: what labels a node's metrics and its log lines.
func NodeNames() []string { return nodes.Names() }

// Yielding returns a context under which every node of a turn yields the
// processor before it runs (graph.Yielding): for a server running many
// turns at once, so that their nodes yield to each other and to the
// requests being read and written.
func Yielding(ctx context.Context) context.Context { return graph.Yielding(ctx) }
