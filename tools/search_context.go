package tools

import (
	"context"

	"github.com/sgrgraph/sgrgraph/kb"
)

// ContextSearcher is a Searcher that is given the tool call's context: a
// tracing wrapper needs it to nest its span in the call's.
type ContextSearcher interface {
	SearchContext(ctx context.Context, query string, topK int) (kb.Result, error)
}

// search asks s, with ctx when s takes one.
func search(ctx context.Context, s Searcher, query string, topK int) (kb.Result, error) {
	if cs, ok := s.(ContextSearcher); ok {
		return cs.SearchContext(ctx, query, topK)
	}
	return s.Search(query, topK)
}
