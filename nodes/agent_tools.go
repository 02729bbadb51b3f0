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

// SplitToolCalls gives each tool call of the last assistant message a
// state of its own, for CallTool to run in parallel; the order is the
// calls' order, which is the order their answers join the context.
func SplitToolCalls(s *contracts.ChatState) []*contracts.ChatState {
	if len(s.Messages) == 0 {
		return nil
	}
	calls := s.Messages[len(s.Messages)-1].ToolCalls
	out := make([]*contracts.ChatState, len(calls))
	for i := range calls {
		c := s.Clone()
		c.ToolCall = &calls[i]
		out[i] = c
	}
	return out
}

// Call runs the state's tool call (ToolCall, set by SplitToolCalls), or,
// when it has none, every call of the last assistant message in order, and
// answers each with a tool message; a failing or unknown tool is answered
// with its error, so the model can recover. The results wait in
// ToolResults for Node to record.
func (c AgentTools) Call() Func {
	return func(ctx context.Context, s *contracts.ChatState) (*contracts.ChatState, error) {
		if call := s.ToolCall; call != nil {
			s.ToolCall = nil
			c.call(ctx, s, *call)
			return s, nil
		}
		if n := len(s.Messages); n > 0 && s.Messages[n-1].Role == schema.Assistant {
			for _, call := range s.Messages[n-1].ToolCalls {
				c.call(ctx, s, call)
			}
		}
		return s, nil
	}
}

// call runs one tool call and records its answer.
func (c AgentTools) call(ctx context.Context, s *contracts.ChatState, call schema.ToolCall) {
	name, args := call.Function.Name, call.Function.Arguments
	events.Emit(ctx, contracts.Event{Kind: contracts.EventToolCall, Tool: name, Text: args})
	res := contracts.ToolResult{CallID: call.ID, Tool: name, Args: args}
	out, err := c.run(ctx, name, args)
	if err != nil {
		res.Error = err.Error()
		out = "error: " + err.Error()
		events.Emit(ctx, contracts.Event{Kind: contracts.EventToolResult, Tool: name, Error: err.Error()})
	} else {
		events.Emit(ctx, contracts.Event{Kind: contracts.EventToolResult, Tool: name, Text: out})
	}
	res.Output = out
	s.ToolResults = append(s.ToolResults, res)
	s.Messages = append(s.Messages, schema.ToolMessage(out, call.ID, schema.WithToolName(name)))
}

// Node records what the tool calls of a step returned, in call order: each
// result becomes evidence and a query trace, and the trace of a failed
// call keeps its error.
func (c AgentTools) Node() Func {
	return func(_ context.Context, s *contracts.ChatState) (*contracts.ChatState, error) {
		for _, r := range s.ToolResults {
			if r.Error != "" {
				s.QueryTraces = append(s.QueryTraces, contracts.QueryTrace{Query: queryOf(r.Args), Tool: r.Tool, Error: r.Error,
					Attempt: s.RetryCount})
				continue
			}
			c.record(s, r.Tool, r.Args, r.Output)
		}
		s.ToolResults = nil
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
// score as confidence; any other result is one item per query, of the
// tool's declared source, fully trusted, since the tool answered the
// question it was asked.
func (c AgentTools) record(s *contracts.ChatState, name, args, out string) {
	source := contracts.SourceDoc
	if src, ok := c.Sources[name]; ok {
		source = src
	}
	res, err := c.result(out)
	if err != nil || res.Articles == nil {
		// Each query of such a tool is its own evidence: two SQL queries
		// are two facts, not one found twice.
		ref := name
		if q := queryOf(args); q != "" {
			ref = name + ": " + q
		}
		addEvidence(s, contracts.EvidenceItem{Source: source, Ref: ref, Snippet: clip(out), Confidence: 1, Tool: name, Query: queryOf(args), Attempt: s.RetryCount})
		s.QueryTraces = append(s.QueryTraces, contracts.QueryTrace{Query: queryOf(args), Tool: name, Attempt: s.RetryCount})
		return
	}
	s.QueryTraces = append(s.QueryTraces, contracts.QueryTrace{Query: res.Query, Tool: name, Confidence: res.Confidence, Articles: res.Articles,
		Attempt: s.RetryCount})
	for _, a := range res.Articles {
		snippet := ""
		if len(a.Chunks) > 0 {
			snippet = a.Chunks[0].Text
		}
		ref := a.URL
		if ref == "" {
			ref = a.KBID
		}
		addEvidence(s, contracts.EvidenceItem{Source: source, Ref: ref, Snippet: clip(snippet), Confidence: a.Score, Tool: name, Query: res.Query,
			Attempt: s.RetryCount})
		if !hasArticle(s.Articles, a.KBID) {
			s.Articles = append(s.Articles, a)
		}
	}
}

// result reads a tool's output as a search result. The tool that
// returned it may hand over the result itself (tools.SearchKB), which is
// what parsing the output gives.
func (c AgentTools) result(out string) (kb.Result, error) {
	for _, t := range c.Tools {
		if h, ok := t.(resultHolder); ok {
			if res, ok := h.HandOver(out); ok {
				return res, nil
			}
		}
	}
	var res kb.Result
	err := json.Unmarshal([]byte(out), &res)
	return res, err
}

// resultHolder is a tool that keeps the results it returned as JSON.
type resultHolder interface {
	HandOver(out string) (kb.Result, bool)
}

// addEvidence keeps one item per source and reference, the best scored:
// an article two searches found is one piece of evidence, not two, while
// the query traces still show both searches. The item keeps the attempt
// that first found it, so a retry that finds only what was known shows
// as finding nothing new.
func addEvidence(s *contracts.ChatState, e contracts.EvidenceItem) {
	for i, have := range s.Evidence {
		if have.Source == e.Source && have.Ref == e.Ref {
			if e.Confidence > have.Confidence {
				e.Attempt = have.Attempt
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
	// The first snippetRunes runes, cut where they end; only invalid
	// UTF-8 needs the runes decoded, which writes each bad byte as U+FFFD.
	end := 0
	for range snippetRunes {
		_, size := utf8.DecodeRuneInString(s[end:])
		end += size
	}
	if head := s[:end]; utf8.ValidString(head) {
		return head + "…"
	}
	return string([]rune(s)[:snippetRunes]) + "…"
}
