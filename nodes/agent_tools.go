package nodes

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/events"
	"github.com/sgrgraph/sgrgraph/kb"
)

// AgentTools configures the tools step of the react_agent loop.
type AgentTools struct {
	Tools []tool.InvokableTool
	// Sources names the evidence source of each tool's results; a tool
	// not listed gives doc evidence.
	Sources map[string]contracts.EvidenceSource
	Timeout time.Duration
}

// DefaultToolTimeout bounds one tool call when none is configured.
const DefaultToolTimeout = 30 * time.Second

// snippetRunes bounds an evidence snippet.
const snippetRunes = 300

// Node runs every tool call of the last assistant message in order and
// answers each with a tool message. Each result becomes evidence and a
// query trace; a failing or unknown tool is answered with its error, so
// the model can recover, and the trace keeps the error.
func (c AgentTools) Node() Func {
	return func(ctx context.Context, s *contracts.ChatState) (*contracts.ChatState, error) {
		if len(s.Messages) == 0 {
			return s, nil
		}
		last := s.Messages[len(s.Messages)-1]
		for _, call := range last.ToolCalls {
			name, args := call.Function.Name, call.Function.Arguments
			events.Emit(ctx, contracts.Event{Kind: contracts.EventToolCall, Tool: name, Text: args})
			out, err := c.run(ctx, name, args)
			if err != nil {
				out = "error: " + err.Error()
				s.QueryTraces = append(s.QueryTraces, contracts.QueryTrace{Query: queryOf(args), Tool: name, Error: err.Error()})
				events.Emit(ctx, contracts.Event{Kind: contracts.EventToolResult, Tool: name, Error: err.Error()})
			} else {
				c.record(s, name, args, out)
				events.Emit(ctx, contracts.Event{Kind: contracts.EventToolResult, Tool: name, Text: out})
			}
			s.Messages = append(s.Messages, schema.ToolMessage(out, call.ID, schema.WithToolName(name)))
		}
		return s, nil
	}
}

func (c AgentTools) run(ctx context.Context, name, args string) (string, error) {
	for _, t := range c.Tools {
		info, err := t.Info(ctx)
		if err != nil || info.Name != name {
			continue
		}
		timeout := c.Timeout
		if timeout <= 0 {
			timeout = DefaultToolTimeout
		}
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		return t.InvokableRun(ctx, args)
	}
	return "", fmt.Errorf("unknown tool %q", name)
}

// record turns a tool result into evidence and a query trace. A knowledge
// base result gives one evidence item per article, with the article's
// score as confidence; any other result is one item, fully trusted, since
// the tool answered the question it was asked.
func (c AgentTools) record(s *contracts.ChatState, name, args, out string) {
	source := contracts.SourceDoc
	if src, ok := c.Sources[name]; ok {
		source = src
	}
	var res kb.Result
	if json.Unmarshal([]byte(out), &res) != nil || res.Articles == nil {
		addEvidence(s, contracts.EvidenceItem{Source: source, Ref: name, Snippet: clip(out), Confidence: 1, Tool: name, Query: queryOf(args)})
		s.QueryTraces = append(s.QueryTraces, contracts.QueryTrace{Query: queryOf(args), Tool: name})
		return
	}
	s.QueryTraces = append(s.QueryTraces, contracts.QueryTrace{Query: res.Query, Tool: name, Confidence: res.Confidence, Articles: res.Articles})
	for _, a := range res.Articles {
		snippet := ""
		if len(a.Chunks) > 0 {
			snippet = a.Chunks[0].Text
		}
		ref := a.URL
		if ref == "" {
			ref = a.KBID
		}
		addEvidence(s, contracts.EvidenceItem{Source: source, Ref: ref, Snippet: clip(snippet), Confidence: a.Score, Tool: name, Query: res.Query})
		if !hasArticle(s.Articles, a.KBID) {
			s.Articles = append(s.Articles, a)
		}
	}
}

// addEvidence keeps one item per source and reference, the best scored:
// an article two searches found is one piece of evidence, not two, while
// the query traces still show both searches.
func addEvidence(s *contracts.ChatState, e contracts.EvidenceItem) {
	for i, have := range s.Evidence {
		if have.Source == e.Source && have.Ref == e.Ref {
			if e.Confidence > have.Confidence {
				s.Evidence[i] = e
			}
			return
		}
	}
	s.Evidence = append(s.Evidence, e)
}

func hasArticle(list []contracts.Article, id string) bool {
	for _, a := range list {
		if a.KBID == id {
			return true
		}
	}
	return false
}

// queryOf reads the query argument of a tool call, if it has one.
func queryOf(args string) string {
	var a struct {
		Query string `json:"query"`
	}
	_ = json.Unmarshal([]byte(args), &a)
	return a.Query
}

func clip(s string) string {
	if utf8.RuneCountInString(s) <= snippetRunes {
		return s
	}
	r := []rune(s)
	return string(r[:snippetRunes]) + "…"
}
