package agent

import (
	"context"

	"github.com/cloudwego/eino/callbacks"
	"github.com/cloudwego/eino/components"
	"github.com/cloudwego/eino/components/tool"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/guards/safety"
	"github.com/sgrgraph/sgrgraph/kb"
	"github.com/sgrgraph/sgrgraph/tools"
)

// classifier gives each guard classification a span with its level and
// categories; without tracing c is returned as it is.
func (t *tracing) classifier(c safety.Classifier) safety.Classifier {
	if t == nil {
		return c
	}
	return tracedClassifier{inner: c, t: t}
}

type tracedClassifier struct {
	inner safety.Classifier
	t     *tracing
}

func (c tracedClassifier) Classify(ctx context.Context, text string) (contracts.Moderation, error) {
	ctx, span := c.t.tracer.Start(ctx, "guard.classify")
	defer span.End()
	m, err := c.inner.Classify(ctx, text)
	span.SetAttributes(attribute.String("sgrgraph.guard.provider", m.Provider), attribute.String("sgrgraph.guard.level", string(m.Level)),
		attribute.StringSlice("sgrgraph.guard.categories", m.Categories))
	c.t.o.Fail(span, err)
	return m, err
}

// searcher gives each knowledge-base search a span with its hits and top
// score, and its query with record_content: a query is the user's words
// rearranged, where masking no longer finds an e-mail address it split.
// Without tracing s is returned as it is.
func (t *tracing) searcher(s tools.Searcher) tools.Searcher {
	if t == nil {
		return s
	}
	return tracedSearcher{inner: s, t: t}
}

type tracedSearcher struct {
	inner tools.Searcher
	t     *tracing
}

// Search is a search outside any call: it has no context to nest in.
func (s tracedSearcher) Search(query string, topK int) (kb.Result, error) {
	return s.SearchContext(context.Background(), query, topK)
}

func (s tracedSearcher) SearchContext(ctx context.Context, query string, topK int) (kb.Result, error) {
	ctx, span := s.t.tracer.Start(ctx, "kb.search", trace.WithAttributes(attribute.Int("sgrgraph.kb.top_k", topK)))
	defer span.End()
	if s.t.o.RecordContent {
		span.SetAttributes(attribute.String("sgrgraph.kb.query", s.t.o.Text(query)))
	}
	var res kb.Result
	var err error
	if cs, ok := s.inner.(tools.ContextSearcher); ok {
		res, err = cs.SearchContext(ctx, query, topK)
	} else {
		res, err = s.inner.Search(query, topK)
	}
	if err != nil {
		s.t.o.Fail(span, err)
		return res, err
	}
	span.SetAttributes(attribute.Int("sgrgraph.kb.hits", len(res.Articles)), attribute.Float64("sgrgraph.kb.top_score", res.Confidence.TopScore),
		attribute.Bool("sgrgraph.kb.likely_relevant", res.Confidence.LikelyRelevant))
	return res, nil
}

// reported makes each tool report its calls to eino's callbacks, which the
// graph's tracing turns into spans; tools that report their own are kept.
func (t *tracing) reported(ts []tool.InvokableTool) []tool.InvokableTool {
	if t == nil {
		return ts
	}
	out := make([]tool.InvokableTool, len(ts))
	for i, it := range ts {
		out[i] = it
		if c, ok := it.(components.Checker); ok && c.IsCallbacksEnabled() {
			continue
		}
		if info, err := it.Info(context.Background()); err == nil {
			out[i] = reportedTool{InvokableTool: it, name: info.Name}
		}
	}
	return out
}

type reportedTool struct {
	tool.InvokableTool
	name string
}

func (t reportedTool) InvokableRun(ctx context.Context, args string, opts ...tool.Option) (string, error) {
	ctx = callbacks.ReuseHandlers(ctx, &callbacks.RunInfo{Name: t.name, Type: t.name, Component: components.ComponentOfTool})
	ctx = callbacks.OnStart(ctx, &tool.CallbackInput{ArgumentsInJSON: args})
	out, err := t.InvokableTool.InvokableRun(ctx, args, opts...)
	if err != nil {
		callbacks.OnError(ctx, err)
		return out, err
	}
	callbacks.OnEnd(ctx, &tool.CallbackOutput{Response: out})
	return out, nil
}

// HandOver passes on search_kb's hand-over of its results (nodes.AgentTools
// reads them without decoding the JSON).
func (t reportedTool) HandOver(out string) (kb.Result, bool) {
	if h, ok := t.InvokableTool.(interface {
		HandOver(string) (kb.Result, bool)
	}); ok {
		return h.HandOver(out)
	}
	return kb.Result{}, false
}
