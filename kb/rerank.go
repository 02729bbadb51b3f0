package kb

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"

	"github.com/sgrgraph/sgrgraph/outbound"
)

// Reranker scores documents against a query: one score a document, in
// the documents' order, higher more relevant.
type Reranker interface {
	Rerank(ctx context.Context, query string, documents []string) ([]float64, error)
}

// maxRerankBody bounds a rerank answer read into memory.
const maxRerankBody = 4 << 20

// NewReranker is the reranker kb.rerank configures: a POST of
// {"model", "query", "documents"} (vLLM, Jina, Cohere-like; c.Request
// "documents") or {"query", "texts", "truncate": true} (TEI; "texts") to
// c.URL. It reads either answer: {"results": [{"index", "relevance_score"
// or "score"}]} or a list of {"index", "score"}, in any order, one entry
// for every document. Each call is bounded by c.Timeout and retried, at
// most c.Retry.Attempts times, on connection errors, 429 and 5xx.
func NewReranker(c RerankConfig) Reranker {
	header := http.Header{}
	if c.APIKey != "" {
		header.Set("Authorization", "Bearer "+c.APIKey)
	}
	return &httpReranker{cfg: c, host: hostOf(c.URL), client: outbound.Client("rerank", c.Retry, header, outbound.Timeouts{Call: c.Timeout})}
}

type httpReranker struct {
	cfg    RerankConfig
	host   string
	client *http.Client
}

func (h *httpReranker) Rerank(ctx context.Context, query string, docs []string) ([]float64, error) {
	if h.cfg.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, h.cfg.Timeout)
		defer cancel()
	}
	body := map[string]any{"query": query}
	if h.cfg.Model != "" {
		body["model"] = h.cfg.Model
	}
	if h.cfg.Request == "texts" {
		body["texts"], body["truncate"] = docs, true
	} else {
		body["documents"] = docs
	}
	data, err := json.Marshal(body)
	if err != nil {
		return nil, h.fail("encode request: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.cfg.URL, bytes.NewReader(data))
	if err != nil {
		return nil, h.fail("%w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := h.client.Do(req)
	if timedOut(err) {
		return nil, h.fail("no answer within kb.rerank.timeout %s: %w", h.cfg.Timeout, err)
	}
	if err != nil {
		return nil, h.fail("%w", err)
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(resp.Body, maxRerankBody+1))
	if err != nil {
		return nil, h.fail("read answer: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, h.fail("%s: %s", resp.Status, clipBytes(answer, 300))
	}
	if len(answer) > maxRerankBody {
		return nil, h.fail("answer over %d bytes", maxRerankBody)
	}
	scores, err := rerankScores(answer, len(docs))
	if err != nil {
		return nil, h.fail("%w", err)
	}
	return scores, nil
}

func (h *httpReranker) fail(format string, args ...any) error {
	return fmt.Errorf("kb.rerank.url %s: "+format, append([]any{h.host}, args...)...)
}

// rerankResult is one entry of either answer shape.
type rerankResult struct {
	Index          *int     `json:"index"`
	RelevanceScore *float64 `json:"relevance_score"`
	Score          *float64 `json:"score"`
}

// rerankScores reads a rerank answer into one score a document.
func rerankScores(answer []byte, n int) ([]float64, error) {
	var results []rerankResult
	trimmed := bytes.TrimSpace(answer)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		if err := json.Unmarshal(trimmed, &results); err != nil {
			return nil, fmt.Errorf("answer is not a rerank answer: %w", err)
		}
	} else {
		var wrapped struct {
			Results []rerankResult `json:"results"`
		}
		if err := json.Unmarshal(trimmed, &wrapped); err != nil {
			return nil, fmt.Errorf("answer is not a rerank answer: %w", err)
		}
		results = wrapped.Results
	}
	if len(results) != n {
		return nil, fmt.Errorf("answer scores %d documents of %d", len(results), n)
	}
	scores, seen := make([]float64, n), make([]bool, n)
	for k, r := range results {
		s := r.RelevanceScore
		if s == nil {
			s = r.Score
		}
		switch {
		case r.Index == nil || s == nil:
			return nil, fmt.Errorf("answer entry %d: no index or no relevance_score/score", k)
		case *r.Index < 0 || *r.Index >= n || seen[*r.Index]:
			return nil, fmt.Errorf("answer entry %d: index %d is out of range or repeated", k, *r.Index)
		case math.IsNaN(*s) || math.IsInf(*s, 0):
			return nil, fmt.Errorf("answer entry %d: score is not a finite number", k)
		}
		seen[*r.Index], scores[*r.Index] = true, *s
	}
	return scores, nil
}

func clipBytes(b []byte, n int) string {
	b = bytes.TrimSpace(b)
	if len(b) > n {
		return string(bytes.ToValidUTF8(b[:n], nil)) + "…"
	}
	return string(b)
}
