package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/components/tool/utils"
	"github.com/cloudwego/eino/schema"

	"github.com/sgrgraph/sgrgraph/kb"
)

// SearchKBToolName is the name of the knowledge-base search tool.
const SearchKBToolName = "search_kb"

// Searcher is what search_kb needs from a knowledge base; *kb.Index has it.
type Searcher interface {
	Search(query string, topK int) (kb.Result, error)
}

// SearchKBArgs are the arguments the model passes to search_kb.
type SearchKBArgs struct {
	Query string `json:"query" jsonschema:"required" jsonschema_description:"What to look for, in the words the documentation would use. One topic per call."`
	TopK  int    `json:"top_k,omitempty" jsonschema:"minimum=1,maximum=50" jsonschema_description:"How many articles to return (1..50); the configured default when omitted."`
}

// SearchKB is the eino tool search_kb. Its result is the JSON of kb.Result:
// the query, articles grouped by kb_id with their best chunks, and the
// retrieval confidence.
type SearchKB struct {
	searcher    Searcher
	defaultTopK int
	info        *schema.ToolInfo
	results     handOver // what it returned, for HandOver
}

var _ tool.InvokableTool = (*SearchKB)(nil)

// NewSearchKB makes search_kb over s; defaultTopK applies when the model
// gives no top_k.
func NewSearchKB(s Searcher, defaultTopK int) (*SearchKB, error) {
	if s == nil {
		return nil, fmt.Errorf("search_kb: no knowledge base given")
	}
	if defaultTopK < 1 || defaultTopK > kb.MaxTopK {
		return nil, fmt.Errorf("search_kb: default top_k must be between 1 and %d, got %d", kb.MaxTopK, defaultTopK)
	}
	info, err := utils.GoStruct2ToolInfo[SearchKBArgs](SearchKBToolName,
		"Search the knowledge base. Returns articles ranked by relevance, each with its best passages, and a "+
			"confidence block saying whether the results are likely relevant. Call once per subquery.")
	if err != nil {
		return nil, fmt.Errorf("search_kb schema: %w", err)
	}
	return &SearchKB{searcher: s, defaultTopK: defaultTopK, info: info}, nil
}

// Info describes the tool to the model.
func (t *SearchKB) Info(context.Context) (*schema.ToolInfo, error) { return t.info, nil }

// InvokableRun searches. Bad arguments return an error naming the field, so
// the caller can show it to the model and let it try again.
func (t *SearchKB) InvokableRun(ctx context.Context, argumentsInJSON string, _ ...tool.Option) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	args, err := t.parseArgs(argumentsInJSON)
	if err != nil {
		return "", err
	}
	res, err := search(ctx, t.searcher, args.Query, args.TopK)
	if err != nil {
		return "", fmt.Errorf("%s: %w", SearchKBToolName, err)
	}
	var w jsonWriter
	w.Grow(jsonSize(res))
	if !w.result(res) { // a score json.Marshal refuses: let it say so
		b, err := json.Marshal(res)
		if err != nil {
			return "", fmt.Errorf("%s: encode result: %w", SearchKBToolName, err)
		}
		return string(b), nil
	}
	out := w.String()
	t.results.keep(out, res)
	return out, nil
}

// HandOver returns the result the tool returned as out, its JSON, once:
// what decoding out into a kb.Result gives, without decoding. False when
// the tool no longer holds it; then decode out.
func (t *SearchKB) HandOver(out string) (kb.Result, bool) { return t.results.take(out) }

// parseArgs reads the arguments leniently where that is safe (a number
// sent as a string, a query sent as a list of words); what it cannot read
// is an error whose text tells the model how to call again.
func (t *SearchKB) parseArgs(raw string) (SearchKBArgs, error) {
	var in map[string]any
	if err := json.Unmarshal([]byte(stripFence(raw)), &in); err != nil {
		return SearchKBArgs{}, fmt.Errorf(`%s arguments: invalid JSON (%w); call again with {"query": "...", "top_k": 5}`, SearchKBToolName, err)
	}
	args := SearchKBArgs{TopK: t.defaultTopK}
	switch q := in["query"].(type) {
	case string:
		args.Query = strings.TrimSpace(q)
	case []any:
		var words []string
		for _, w := range q {
			words = append(words, fmt.Sprint(w))
		}
		args.Query = strings.TrimSpace(strings.Join(words, " "))
	case nil:
	default:
		args.Query = strings.TrimSpace(fmt.Sprint(q))
	}
	switch k := in["top_k"].(type) {
	case nil: // absent or null: the default
	case float64:
		if k != math.Trunc(k) {
			return SearchKBArgs{}, fmt.Errorf("%s arguments: top_k: %g is not a whole number", SearchKBToolName, k)
		}
		args.TopK = int(k)
	case string:
		n, err := strconv.Atoi(strings.TrimSpace(k))
		if err != nil {
			return SearchKBArgs{}, fmt.Errorf("%s arguments: top_k: %q is not a number", SearchKBToolName, k)
		}
		args.TopK = n
	default:
		return SearchKBArgs{}, fmt.Errorf("%s arguments: top_k: %v is not a number", SearchKBToolName, k)
	}
	return args, nil
}
